import { describe, expect, it } from 'vitest'
import { buildEnvironment, DEFAULT_ENV_ALLOW_LIST, isCredentialName } from '../src/environment'

const host = {
  PATH: '/usr/bin',
  HOME: '/home/u',
  LC_ALL: 'C.UTF-8',
  LC_SECRET_TOKEN: 'x',
  AWS_SECRET_ACCESS_KEY: 'aws',
  GITHUB_TOKEN: 'gh',
  OPENAI_API_KEY: 'sk',
  NPM_TOKEN: 'npm',
  DATABASE_PASSWORD: 'pw',
  UNRELATED: 'u',
  EMPTY: undefined,
}

describe('buildEnvironment', () => {
  it('inherits only allow-listed variables; credentials and everything else stay out', () => {
    expect(buildEnvironment(host, DEFAULT_ENV_ALLOW_LIST)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      LC_ALL: 'C.UTF-8',
    })
  })

  it('a PREFIX* pattern never admits a credential-looking name, an exact entry does', () => {
    expect(buildEnvironment(host, ['GITHUB_*', 'LC_*'])).toEqual({ LC_ALL: 'C.UTF-8' })
    expect(buildEnvironment(host, ['GITHUB_TOKEN'])).toEqual({ GITHUB_TOKEN: 'gh' })
  })

  it('explicit extra variables are set and win over inherited ones', () => {
    expect(buildEnvironment(host, ['PATH'], { PATH: '/bin', CI: '1' })).toEqual({ PATH: '/bin', CI: '1' })
  })

  it.each(['AWS_ACCESS_KEY_ID', 'GITHUB_TOKEN', 'OPENAI_API_KEY', 'MY_SECRET', 'SSH_KEY', 'DB_PASSWORD'])(
    '%s looks like a credential',
    (name) => {
      expect(isCredentialName(name)).toBe(true)
    },
  )

  it.each(['PATH', 'HOME', 'LANG', 'LC_ALL', 'TERM'])('%s does not look like a credential', (name) => {
    expect(isCredentialName(name)).toBe(false)
  })
})
