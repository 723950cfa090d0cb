/** The character codes the JSON text scanners of the kit and of its runtimes look for. */
export const JSON_CHARS = Object.freeze({
  QUOTE: 0x22,
  BACKSLASH: 0x5c,
  COMMA: 0x2c,
  MINUS: 0x2d,
  OPEN_ARRAY: 0x5b,
  OPEN_OBJECT: 0x7b,
  CLOSE_ARRAY: 0x5d,
  CLOSE_OBJECT: 0x7d,
})
