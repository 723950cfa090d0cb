import type { FormatCheck } from './schema-node'

// Checkers for the `format` values SPEC §9 asserts under `{ formats: 'assert' }`. Written as
// small parsers over RFC 3339 / 3986 / 5321 / 4122 grammar pieces rather than one giant regex,
// so each rule is visible. Inputs are model-chosen: every expression here is linear-time.

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
}

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

function isDate(text: string): boolean {
  const match = FULL_DATE.exec(text)
  if (match === null) return false
  const year = Number(match[1])
  const month = Number(match[2])
  const day = Number(match[3])
  if (month < 1 || month > 12 || day < 1) return false
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month]!)
}

const FULL_TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[zZ]|([+-])(\d{2})(?::?(\d{2}))?)$/

function isTime(text: string): boolean {
  const match = FULL_TIME.exec(text)
  if (match === null) return false
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const sign = match[4] === '-' ? -1 : 1
  const offsetHours = Number(match[5] ?? 0)
  const offsetMinutes = Number(match[6] ?? 0)
  if (offsetHours > 23 || offsetMinutes > 59) return false
  if (hour <= 23 && minute <= 59 && second <= 59) return true
  // A leap second (second 60) only exists at 23:59 UTC.
  if (second !== 60) return false
  const utcMinute = minute - sign * offsetMinutes
  const utcHour = hour - sign * offsetHours - (utcMinute < 0 ? 1 : 0)
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1)
}

function isDateTime(text: string): boolean {
  const parts = text.split(/[tT\s]/)
  return parts.length === 2 && isDate(parts[0]!) && isTime(parts[1]!)
}

const DURATION_DATE = /^(\d+Y)?(\d+M)?(\d+D)?$/
const DURATION_TIME = /^(\d+H)?(\d+M)?(\d+S)?$/

function isDuration(text: string): boolean {
  if (!text.startsWith('P') || text.length < 3) return false
  const body = text.slice(1)
  if (/^\d+W$/.test(body)) return true
  const split = body.indexOf('T')
  const datePart = split < 0 ? body : body.slice(0, split)
  if (!DURATION_DATE.test(datePart)) return false
  if (split < 0) return datePart.length > 0
  const timePart = body.slice(split + 1)
  return timePart.length > 0 && DURATION_TIME.test(timePart)
}

// RFC 5321 `Mailbox`: a dot-string or quoted-string local part, then a domain or an IPv4 / IPv6
// address literal. ASCII only (non-ASCII is `idn-email`, which is not asserted). Both local-part
// expressions are linear: their alternatives never start with the same character.
const DOT_STRING_LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@/
const QUOTED_LOCAL = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"@/
const EMAIL_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/
const IPV6_TAG = /^IPv6:/i

function isEmailDomain(domain: string): boolean {
  if (domain.startsWith('[') && domain.endsWith(']')) {
    const literal = domain.slice(1, -1)
    return IPV6_TAG.test(literal) ? isIpv6(literal.slice(5)) : isIpv4(literal)
  }
  // A single label (`test@io`) is a valid RFC 5321 domain.
  return domain.split('.').every((label) => EMAIL_LABEL.test(label))
}

function isEmail(text: string): boolean {
  const local = (text.startsWith('"') ? QUOTED_LOCAL : DOT_STRING_LOCAL).exec(text)
  return local !== null && isEmailDomain(text.slice(local[0].length))
}

const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/

function isHostname(text: string): boolean {
  const bare = text.endsWith('.') ? text.slice(0, -1) : text
  if (bare.length === 0 || bare.length > 253) return false
  return bare.split('.').every((label) => HOST_LABEL.test(label))
}

const OCTET = /^(?:0|[1-9]\d{0,2})$/

function isIpv4(text: string): boolean {
  const parts = text.split('.')
  return parts.length === 4 && parts.every((part) => OCTET.test(part) && Number(part) <= 255)
}

const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/

/** Counts the 16-bit groups of one side of an IPv6 address, or -1 when malformed. */
function ipv6Groups(side: string, last: boolean): number {
  if (side === '') return 0
  const groups = side.split(':')
  let count = 0
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!
    if (HEX_GROUP.test(group)) count++
    else if (last && i === groups.length - 1 && isIpv4(group)) count += 2
    else return -1
  }
  return count
}

function isIpv6(text: string): boolean {
  const halves = text.split('::')
  if (halves.length > 2) return false
  if (halves.length === 1) return ipv6Groups(text, true) === 8
  const head = ipv6Groups(halves[0]!, false)
  const tail = ipv6Groups(halves[1]!, true)
  return head >= 0 && tail >= 0 && head + tail <= 7
}

const UUID = /^(?:urn:uuid:)?[0-9A-Fa-f]{8}-(?:[0-9A-Fa-f]{4}-){3}[0-9A-Fa-f]{12}$/

// RFC 3986 pieces (ASCII only; percent-encoded octets allowed where the grammar allows them).
const PCT = '%[0-9A-Fa-f]{2}'
const UNRESERVED_SUB = "A-Za-z0-9\\-._~!$&'()*+,;="
const PCHAR = `(?:[${UNRESERVED_SUB}:@]|${PCT})`
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/
const USERINFO = new RegExp(`^(?:[${UNRESERVED_SUB}:]|${PCT})*$`)
const REG_NAME = new RegExp(`^(?:[${UNRESERVED_SUB}]|${PCT})*$`)
const PORT = /^\d*$/
const PATH = new RegExp(`^(?:${PCHAR}|/)*$`)
const QUERY = new RegExp(`^(?:${PCHAR}|[/?])*$`)
const IP_FUTURE = new RegExp(`^[vV][0-9A-Fa-f]+\\.[${UNRESERVED_SUB}:]+$`)

function isAuthority(authority: string): boolean {
  const at = authority.lastIndexOf('@')
  if (at >= 0 && !USERINFO.test(authority.slice(0, at))) return false
  let hostPort = authority.slice(at + 1)
  if (hostPort.startsWith('[')) {
    const close = hostPort.indexOf(']')
    if (close < 0) return false
    const literal = hostPort.slice(1, close)
    if (!isIpv6(literal) && !IP_FUTURE.test(literal)) return false
    hostPort = hostPort.slice(close + 1)
    return hostPort === '' || (hostPort.startsWith(':') && PORT.test(hostPort.slice(1)))
  }
  const colon = hostPort.lastIndexOf(':')
  const host = colon < 0 ? hostPort : hostPort.slice(0, colon)
  return REG_NAME.test(host) && (colon < 0 || PORT.test(hostPort.slice(colon + 1)))
}

/** Checks hier-part / relative-part plus query and fragment (everything after `scheme:`). */
function isUriTail(rest: string, relative: boolean): boolean {
  const hash = rest.indexOf('#')
  if (hash >= 0 && !QUERY.test(rest.slice(hash + 1))) return false
  const beforeHash = hash < 0 ? rest : rest.slice(0, hash)
  const question = beforeHash.indexOf('?')
  if (question >= 0 && !QUERY.test(beforeHash.slice(question + 1))) return false
  let path = question < 0 ? beforeHash : beforeHash.slice(0, question)
  if (path.startsWith('//')) {
    const slash = path.indexOf('/', 2)
    const authority = slash < 0 ? path.slice(2) : path.slice(2, slash)
    if (!isAuthority(authority)) return false
    path = slash < 0 ? '' : path.slice(slash)
  } else if (relative) {
    // A relative path's first segment may not contain ':' (it would read as a scheme).
    const first = path.split('/')[0]!
    if (first.includes(':')) return false
  }
  return PATH.test(path)
}

function isUri(text: string): boolean {
  const colon = text.indexOf(':')
  return colon > 0 && SCHEME.test(text.slice(0, colon)) && isUriTail(text.slice(colon + 1), false)
}

function isUriReference(text: string): boolean {
  return isUri(text) || isUriTail(text, true)
}

function isRegex(text: string): boolean {
  try {
    new RegExp(text, 'u')
    return true
  } catch {
    return false
  }
}

/** The asserted formats by name; other names stay annotations even in assert mode. */
export const FORMAT_CHECKS: Readonly<Record<string, FormatCheck>> = {
  'date-time': isDateTime,
  date: isDate,
  time: isTime,
  duration: isDuration,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIpv4,
  ipv6: isIpv6,
  uri: isUri,
  'uri-reference': isUriReference,
  uuid: (text) => UUID.test(text),
  regex: isRegex,
}
