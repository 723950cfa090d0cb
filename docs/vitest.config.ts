import { sharedConfig } from '../vitest.shared.ts'

// The docs check: markdown across the repository against the code it describes.
export default sharedConfig
