// Elision markers put a count's noun in the right number ("1 item", "2 items").
import { describe, expect, it } from 'vitest'
import {
  imageNote,
  itemsMarker,
  keysMarker,
  partsMarker,
  stringMarker,
  subtreeMarker,
  textMarker,
} from '../src/result-budget/markers'

const note = { handle: 'res_1' }

describe('elision markers', () => {
  it('singular for one, plural otherwise', () => {
    expect(textMarker(1, 1, note)).toContain('[elided 1 byte, 1 line;')
    expect(textMarker(2, 0, note)).toContain('[elided 2 bytes, 0 lines;')
    expect(stringMarker(1, note)).toContain('[elided 1 char;')
    expect(itemsMarker(1, note)).toContain('[elided 1 item;')
    expect(itemsMarker(3, note)).toContain('[elided 3 items;')
    expect(keysMarker(1, note)).toContain('[elided 1 key;')
    expect(subtreeMarker(1, note)).toContain('[elided 1 byte of JSON;')
    expect(imageNote('image/png', 1, note)).toContain('image/png, 1 byte of base64;')
    expect(partsMarker(1, 1, note)).toContain('[elided 1 content part, 1 byte;')
    expect(partsMarker(2, 5, note)).toContain('[elided 2 content parts, 5 bytes;')
  })
})
