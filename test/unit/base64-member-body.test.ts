import { describe, expect, it } from 'vitest';
import { chunkChars, parseBodyWithBase64Member } from '../../src/http/base64-member-body.js';
import { parseJsonBody } from '../../src/http/json-body.js';

const limit = 50 * 1024 * 1024;
const scan = (body: string | Buffer) => parseBodyWithBase64Member(typeof body === 'string' ? Buffer.from(body) : body, 'data', limit);
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** What the ordinary parser throws for a body, or undefined when it parses it. */
function ordinaryError(body: Buffer): { name: string; message: string; code: unknown } | undefined {
  try {
    parseJsonBody(Buffer.from(body));
    return undefined;
  } catch (error) {
    return { name: (error as Error).constructor.name, message: (error as Error).message, code: (error as { code?: unknown }).code };
  }
}

function scannerError(body: Buffer): { name: string; message: string; code: unknown } | undefined {
  try {
    parseBodyWithBase64Member(Buffer.from(body), 'data', limit);
    return undefined;
  } catch (error) {
    return { name: (error as Error).constructor.name, message: (error as Error).message, code: (error as { code?: unknown }).code };
  }
}

describe('parseBodyWithBase64Member: files/create bodies', () => {
  it.each([
    ['data first', `{"data":"${b64('hello')}","field_id":"docs","name":"a.txt"}`],
    ['data last', `{"field_id":"docs","name":"a.txt","data":"${b64('hello')}"}`],
    ['data in the middle', `{"field_id":"docs","data":"${b64('hello')}","name":"a.txt"}`],
    ['whitespace everywhere', ` \n{ \t"field_id" : "docs" ,\r\n "data"\n:\t"${b64('hello')}" , "name":"a.txt"\n}\n `],
  ])('decodes data wherever it stands (%s); the other members are parsed as JSON', (_case, body) => {
    expect(scan(body)).toEqual({ field_id: 'docs', name: 'a.txt', data: Buffer.from('hello') });
  });

  it('other members keep their escapes, nesting and types, as the ordinary parser reads them', () => {
    const body = `{"name":"a \\"quoted\\" \\\\ name \\u00e9 }{","meta":{"list":[1,{"s":"]}"}],"n":null},"flag":true,"n":-1.5e3,"data":"${b64('x')}","t\\u0079pe":"text/plain"}`;
    const ordinary = parseJsonBody(Buffer.from(body)) as Record<string, unknown>;
    expect(scan(body)).toEqual({ ...ordinary, data: Buffer.from('x') });
  });

  it('a data string with an escape goes to the ordinary parser: data stays the text it reads', () => {
    const body = '{"name":"a","data":"QUJ\\u0044"}';
    expect(scan(body)).toEqual({ name: 'a', data: 'QUJD' });
    expect(scan('{"data":"QU\\/J"}')).toEqual({ data: 'QU/J' });
  });

  it('anything not a base64 string is left as the ordinary parser reads it', () => {
    for (const body of ['', '  ', '{}', '{"data":5}', '{"data":null}', '{"data":["QUJD"]}', '[1,2]', '"text"', '{"name":"x"}', '{"data":"QUJD","data":"QUI="}', '\uFEFF{"data":"QUJD"}']) {
      expect(scan(body), JSON.stringify(body)).toEqual(parseJsonBody(Buffer.from(body)));
    }
  });

  it.each([
    ['a trailing comma', '{"name":"a","data":"QUJD",}'],
    ['a missing comma', '{"data":"QUJD" "name":"a"}'],
    ['a bad literal before data', '{"name": tru, "data":"QUJD"}'],
    ['a bad number after data', '{"data":"QUJD","n": 01}'],
    ['a raw newline in data', '{"data":"QU\nJD"}'],
    ['a raw tab in another member', '{"name":"a\tb","data":"QUJD"}'],
    ['an unterminated body', '{"data":"QUJD"'],
    ['an unterminated data string', '{"name":"a","data":"QUJD'],
    ['a brace too many', '{"data":"QUJD"}}'],
    ['text after the object', '{"data":"QUJD"} x'],
    ['a missing colon', '{"data" "QUJD"}'],
    ['an unquoted key', '{data:"QUJD"}'],
    ['a mismatched bracket', '{"meta":[1,2},"data":"QUJD"}'],
    ['a bad escape in a key', '{"na\\qme":"a","data":"QUJD"}'],
    ['a NUL escaped in another member', '{"name":"a\\u0000","data":"QUJD"}'],
    ['nesting past the limit', `{"deep":${'['.repeat(70)}${']'.repeat(70)},"data":"QUJD"}`],
  ])('a malformed body (%s) fails exactly as with the ordinary parser', (_case, text) => {
    const body = Buffer.from(text);
    const expected = ordinaryError(body);
    expect(expected).toBeDefined();
    expect(scannerError(body)).toEqual(expected);
  });

  it('bytes that are not UTF-8, in data or elsewhere, fail as with the ordinary parser', () => {
    for (const body of [Buffer.concat([Buffer.from('{"data":"QU'), Buffer.from([0xff]), Buffer.from('JD"}')]), Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3]), Buffer.from('","data":"QUJD"}')])]) {
      const expected = ordinaryError(body);
      expect(expected?.message).toMatch(/not valid UTF-8/);
      expect(scannerError(body)).toEqual(expected);
    }
  });

  it('valid UTF-8 past ASCII in data is read by the ordinary parser (and is not base64 for the service)', () => {
    expect(scan('{"data":"QUJDé"}')).toEqual({ data: 'QUJDé' });
  });

  it.each([
    ['QUJD', 'ABC'],
    ['QUI=', 'AB'],
    ['QUI', 'AB'],
    ['QQ==', 'A'],
    ['QQ', 'A'],
    ['', ''],
    ['-_8', Buffer.from([0xfb, 0xff]).toString('latin1')],
  ])('base64 %j decodes to %j (padding optional, either alphabet)', (text, decoded) => {
    expect(scan(`{"data":"${text}"}`)).toEqual({ data: Buffer.from(decoded, 'latin1') });
  });

  it.each(['QUJD=', 'Q', 'QQ=', 'QUJDQ', 'QU JD', 'QQ==QUJD', 'not base64!', 'QUJD===', '=QUJ'])('%j is not base64: data is null', (text) => {
    expect(scan(`{"name":"a","data":"${text}"}`)).toEqual({ name: 'a', data: null });
  });

  it('decoding more than the limit is 413, from the length alone', () => {
    const body = Buffer.from(`{"data":"${'A'.repeat(8)}"}`);
    expect(() => parseBodyWithBase64Member(body, 'data', 5)).toThrow('Payload Too Large');
    expect(parseBodyWithBase64Member(body, 'data', 6)).toEqual({ data: Buffer.alloc(6) });
  });

  describe('text of many chunks', () => {
    const file = Buffer.alloc(Math.ceil((9 * 1024 * 1024 * 3) / 4) + 2);
    for (let i = 0; i < file.length; i++) file[i] = (i * 31 + (i >> 8)) & 0xff;
    const text = file.toString('base64');

    it('9 MiB of base64 (many chunks, the last partial) decodes byte-identical', () => {
      expect(text.length).toBeGreaterThan(4 * 1024 * 1024 * 2);
      expect(text.length % chunkChars).not.toBe(0);
      const parsed = scan(`{"field_id":"docs","data":"${text}","name":"big"}`) as { data: Buffer; name: string };
      expect(parsed.name).toBe('big');
      expect(Buffer.isBuffer(parsed.data)).toBe(true);
      expect(parsed.data.equals(file)).toBe(true);
    });

    it('a bad character in the last chunk makes data null', () => {
      const broken = `${text.slice(0, -100)}!${text.slice(-99)}`;
      expect(scan(`{"data":"${broken}"}`)).toEqual({ data: null });
    });

    it('a control character in the last chunk, found after all the others were decoded, fails as with the ordinary parser', () => {
      const broken = Buffer.from(`{"name":"é","data":"${text.slice(0, -5)}\n${text.slice(-4)}"}`);
      const expected = ordinaryError(broken);
      expect(expected?.message).toMatch(/Bad control character/);
      expect(scannerError(broken)).toEqual(expected);
    });
  });
});
