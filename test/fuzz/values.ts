/**
 * Hostile and boundary values the fuzzer mixes into every parameter and field: path tricks,
 * undecodable escapes, control characters, lone surrogates, boundary lengths, extreme numbers
 * and years, wrong types, deep nesting.
 */
import fc from "fast-check";

export const KB = 1024;
/** Node refuses request heads over 16 KiB with its own 431 before any app runs; stay below. */
export const HEAD_BUDGET = 14 * KB;

const deepArray = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 1; i < depth; i++) value = [value];
  return value;
};
const deepObject = (depth: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
};
export const DEEP_ARRAY = deepArray(1000);
export const DEEP_OBJECT = deepObject(1000);
/** 20,000 levels of brackets still fit in a 64 KiB body. */
export const DEEPER_TEXT = "[".repeat(20_000) + "]".repeat(20_000);
export const HUGE = "x".repeat(100 * KB);

/** Strings that are not names: invisible, control characters, surrogates, markup, escapes. */
export const NASTY_STRINGS = [
  "",
  " ",
  "   \t ",
  "\u200b",
  "\u200b\u200c\u200d\u2060\ufeff",
  "\u00ad",
  "\u3164",
  "\u0000",
  "a\u0000b",
  "\u0000".repeat(50),
  "\u0007\u0008\u001b[31m",
  "\u0085",
  "\u009f",
  "name\u0080",
  "\ud800",
  "x\udfff",
  "\udc00\ud800",
  "\u202eevil",
  "\t",
  "\n",
  "a\r\nSet-Cookie: x=1",
  "e\u0301\u0301\u0301\u0301",
  "🎉",
  "👩‍👩‍👧‍👦".repeat(40),
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE events; --",
  "${7*7}{{7*7}}",
  "__proto__",
  "constructor",
  "toString",
  "%ZZ",
  "%",
  "%00",
  "%2F",
  "../../etc/passwd",
  "..",
  ".",
  "/",
  "\\",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  "BEGIN:VEVENT\r\nSUMMARY:injected\r\nEND:VEVENT",
  "line\nDTSTART:99991231",
  "a;b,c\\d:e",
  "x".repeat(63),
  "x".repeat(64),
  "x".repeat(65),
  "x".repeat(100),
  "x".repeat(101),
  "x".repeat(199),
  "x".repeat(200),
  "x".repeat(201),
  "🎉".repeat(100),
  "🎉".repeat(101),
  "x".repeat(1000),
  "x".repeat(1001),
  "x".repeat(2048),
  "x".repeat(2049),
  "x".repeat(8192),
  "x".repeat(8193),
  "x".repeat(10_000),
  "x".repeat(10_001),
  "x".repeat(60 * KB),
  HUGE,
];

export const nastyString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  // Any UTF-16 code unit, lone surrogates included.
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      maxLength: 40,
    }),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
);

export const NASTY_NUMBERS: unknown[] = [
  0,
  -0,
  -1,
  1,
  1.5,
  0.1,
  1e308,
  -1e308,
  5e-324,
  2 ** 31,
  2 ** 32 + 1,
  Number.MAX_SAFE_INTEGER + 2,
  12,
  13,
  28,
  29,
  30,
  31,
  32,
  99,
  100,
  366,
  1000,
  1001,
  "NaN",
  "Infinity",
  "-Infinity",
  "1e308",
  "-0",
  "1",
  "0x10",
  "",
];

/** Dates around the edges of what the API accepts (years 0001-9999) and beyond. */
export const NASTY_DATES = [
  "0000-01-01",
  "0001-01-01",
  "0001-01-02",
  "9999-12-31",
  "9999-12-30",
  "10000-01-01",
  "+010000-01-01",
  "-000001-01-01",
  "+002026-11-22",
  "2026-02-29",
  "2028-02-29",
  "2026-02-30",
  "2026-13-01",
  "2026-00-10",
  "2026-11-31",
  "2026-1-1",
  "2026-11-22T10:00:00Z",
  "2026-11-22 ",
  " 2026-11-22",
  "2026-11-22\u0000",
  "２０２６-１１-２２",
  "20261122",
  "1e308",
  "now",
  "",
];

export const TIMEZONES_VALID = [
  "UTC",
  "Europe/Berlin",
  "America/New_York",
  "Asia/Kathmandu",
  "Pacific/Chatham",
  "Australia/Lord_Howe",
  "Pacific/Kiritimati",
  "Etc/GMT+12",
  "Etc/GMT-14",
  "America/St_Johns",
];
export const TIMEZONES_ODD = [
  "europe/BERLIN",
  "utc",
  "Etc/UTC",
  "GMT",
  "GMT0",
  "Z",
  "+05:00",
  "UTC+5",
  "Etc/GMT+15",
  "US/Pacific-New",
  "America/Argentina/ComodRivadavia",
  "Antarctica/Troll",
  "Mars/Olympus",
  "../../etc/passwd",
  "Europe/Berlin\u0000",
  "Europe/Berlin ",
  "local",
  "system",
  "",
];

export const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  "",
  "x",
  [],
  [null],
  ["a", "b"],
  {},
  { a: 1 },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  DEEP_ARRAY,
  DEEP_OBJECT,
];

export const wrongType = fc.constantFrom(...WRONG_TYPES);

/** Plausible dates near the test clock (2026-11-22), for values that should get past validation. */
export const plausibleDate = fc
  .record({
    year: fc.integer({ min: 2024, max: 2029 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ year, month, day }) => `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`);

export const plausibleTime = fc
  .record({ h: fc.integer({ min: 0, max: 23 }), m: fc.integer({ min: 0, max: 59 }) })
  .map(({ h, m }) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);
export const NASTY_TIMES = ["24:00", "23:60", "00:00", "23:59", "9:00", "09:00:00", "-01:00", "12:00Z", "", "noon"];

/** What a path segment can be turned into: the tricks of issue 9 and undecodable escapes. */
export const NASTY_SEGMENTS = [
  "%2F",
  "%2f",
  "%252F",
  "/",
  "..",
  "%2E%2E",
  ".",
  "%ZZ",
  "%",
  "%%",
  "%E0%A4%A",
  "%C0%AF",
  "%C0%80",
  "%ED%A0%80",
  "%FF%FE",
  "%00",
  "%0A",
  "%0D%0A",
  "%20",
  "%u002F",
  "cal_",
  "cal_%2F..",
  "evt_123/",
  "x/",
  "__proto__",
  "constructor",
  "cal_AAAAAAAAAAAAAAAAAAAA",
  "evt_AAAAAAAAAAAAAAAAAAAA",
  "CAL_abc",
  "cal_ab-c",
  "cal_ab.c",
  "cal_ab%20c",
  "cal_\u00e9",
  "ä",
  "x".repeat(300),
  "x".repeat(6000),
  "%41".repeat(1500),
];

/** Authorization headers that must never authenticate. */
export const GARBAGE_AUTH = [
  "Bearer",
  "Bearer ",
  "Bearer  ",
  "bearer",
  "Basic dXNlcjpwYXNz",
  "Token abc",
  "Bearer svc_agent_",
  "Bearer svc_agent_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  "Bearer svc_claim_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  `Bearer svc_agent_${"A".repeat(8000)}`,
  "Bearer ../../tokens/x",
  "Bearer %00",
  "Bearer null",
  "Bearer \u00e9\u00ff",
  "Bearer a b c",
];

/** Content types for bodies; the API takes only application/json. */
export const CONTENT_TYPES = [
  "text/plain",
  "text/html",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "application/json; charset=utf-16",
  "application/json; charset=latin1",
  "application/json; charset=utf-8",
  'application/json; charset="UTF-8"',
  "application/json; charset=x-unknown",
  "APPLICATION/JSON",
  "application/merge-patch+json",
  "application/vnd.api+json",
  "application/jsonx",
  "application/json, text/plain",
  "*/*",
  "application/*",
  "json",
  "",
];

export const CONTENT_ENCODINGS = [
  "identity",
  "gzip",
  "deflate",
  "br",
  "x-gzip",
  "compress",
  "zstd",
  "x-zz",
  "gzip, gzip",
  "identity, gzip",
  "GZIP",
  "",
];

/** Whole bodies that are not a JSON object of the expected shape. */
export const NASTY_BODIES: Array<string | Buffer> = [
  "",
  " ",
  "{",
  "}",
  "null",
  "[]",
  "[{}]",
  '"name"',
  "0",
  "true",
  "NaN",
  '{"name": NaN}',
  '{"name": 1e999}',
  '{"name": "x"} trailing',
  '{"name": "x",}',
  "{'name': 'x'}",
  '\ufeff{"name": "Fuzz"}',
  '{"name": "a", "name": "b"}',
  '{"__proto__": {"admin": true}, "name": "Fuzz"}',
  '{"constructor": {"prototype": {"admin": true}}, "name": "Fuzz"}',
  '{"name": "\\ud800"}',
  '{"name": "\\u0000"}',
  '{"name": "\\udfff\\ud800"}',
  '{"name": "Fuzz", "recur": {"type": "monthly", "day": -0}}',
  '{"name": "Fuzz", "recur": {"type": "daily", "interval": 1e308}}',
  '{"name": "Fuzz", "recur": {"type": "daily", "interval": 1e-308}}',
  '{"name": "Fuzz", "date": "9999-12-31", "start_time": "23:59", "recur": null}',
  '{"name": "Fuzz", "recur": {"type": "yearly", "month": 2, "day": 29, "starts": "0001-01-01", "until": "9999-12-31"}}',
  JSON.stringify(DEEP_ARRAY),
  JSON.stringify(DEEP_OBJECT),
  DEEPER_TEXT,
  JSON.stringify({ name: HUGE }),
  JSON.stringify({ name: "x".repeat(60 * KB) }),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  Buffer.from('{"name": "\xff\xfe"}', "latin1"),
  Buffer.from('{"name": "Fuzz"}', "utf16le"),
  Buffer.from([0xc0, 0xaf, 0xed, 0xa0, 0x80]),
];
