import { describe, expect, it } from 'vitest'
import {
  isToolsError,
  LosslessJsonError,
  SchemaDefinitionError,
  ToolArgsError,
  ToolsError,
  UnsupportedJsonSchemaError,
} from '../src/index'

describe('errors', () => {
  it('ToolArgsError carries INVALID_ARGS and the violations', () => {
    const violations = [{ path: '$.name', message: 'expected string, got number' }]
    const error = new ToolArgsError(violations, { cause: 'why' })
    expect(error.code).toBe('INVALID_ARGS')
    expect(error.name).toBe('ToolArgsError')
    expect(error.violations).toEqual(violations)
    expect(error.message).toContain('$.name: expected string, got number')
    expect(error.cause).toBe('why')
    expect(error).toBeInstanceOf(ToolsError)
    expect(error).toBeInstanceOf(Error)
  })

  it('ToolArgsError caps the listed violations in its message', () => {
    const violations = Array.from({ length: 30 }, (_, i) => ({ path: `$[${i}]`, message: 'bad' }))
    const error = new ToolArgsError(violations)
    expect(error.violations).toHaveLength(30)
    expect(error.message).toContain('and 10 more')
  })

  it('subclasses get name = class name and keep the brand', () => {
    class TimeoutError extends ToolsError {
      constructor() {
        super('TOOL_TIMEOUT', 'timed out')
      }
    }
    const error = new TimeoutError()
    expect(error.name).toBe('TimeoutError')
    expect(error.code).toBe('TOOL_TIMEOUT')
    expect(isToolsError(error)).toBe(true)
  })

  it('isToolsError recognises the Symbol.for brand from another copy', () => {
    const foreign = new Error('x')
    Object.defineProperty(foreign, Symbol.for('dsh-tools.error'), { value: true })
    expect(isToolsError(foreign)).toBe(true)
    expect(isToolsError(new Error('x'))).toBe(false)
    expect(isToolsError(null)).toBe(false)
    expect(isToolsError('INVALID_ARGS')).toBe(false)
  })

  it('path-carrying errors expose path and code', () => {
    expect(new LosslessJsonError('$.a', 'x').path).toBe('$.a')
    expect(new SchemaDefinitionError('$.b', 'x').code).toBe('INVALID_SCHEMA_DEFINITION')
    expect(new UnsupportedJsonSchemaError('$.c', 'x').code).toBe('UNSUPPORTED_JSON_SCHEMA')
  })
})
