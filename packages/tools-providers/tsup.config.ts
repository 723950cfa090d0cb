import { sharedTsupConfig } from '../../tsup.shared.ts'

export default sharedTsupConfig
