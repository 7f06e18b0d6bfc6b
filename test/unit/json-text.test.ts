import { describe, expect, it } from 'vitest';
import { describeUnstorableValue, scanJsonText } from '../../src/http/json-text.js';

const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('scanJsonText', () => {
  it('counts arrays and objects together, up to 64 levels', () => {
    expect(scanJsonText(nested(64))).toBeNull();
    expect(scanJsonText(nested(65))).toBe('too_deep');
    expect(scanJsonText(`{"a":${'{"b":'.repeat(63)}1${'}'.repeat(63)}}`)).toBeNull();
    expect(scanJsonText(`{"a":[${'{"b":'.repeat(63)}1${'}'.repeat(63)}]}`)).toBe('too_deep');
    // Siblings do not add up.
    expect(scanJsonText(`[${Array.from({ length: 1000 }, () => nested(60)).join(',')}]`)).toBeNull();
  });

  it('ignores brackets inside strings, past escaped quotes and backslashes', () => {
    expect(scanJsonText(`{"a":"${'['.repeat(100)}"}`)).toBeNull();
    expect(scanJsonText(`{"a":"\\"${'{'.repeat(100)}\\\\","b":"\\\\\\"${'['.repeat(100)}"}`)).toBeNull();
    expect(scanJsonText(`["\\\\", ${nested(64)}]`)).toBe('too_deep');
  });

  it('finds NUL and unpaired surrogate escapes, in values and property names, any hex case', () => {
    expect(scanJsonText('{"a":"x\\u0000"}')).toBe('nul');
    expect(scanJsonText('{"\\u0000":1}')).toBe('nul');
    for (const text of ['"\\ud800"', '"\\uDBFF"', '"\\udc00"', '"\\ud800\\u0041"', '"\\ud800\\ud800"', '"\\udc00\\ud800"', '"\\ud83d😀"']) expect(scanJsonText(text), text).toBe('unpaired_surrogate');
  });

  it('accepts escaped pairs, other escapes, and escaped backslashes followed by u', () => {
    for (const text of ['"\\ud83d\\ude00"', '"\\uD83D\\uDE00"', '"\\u0001\\t\\n\\u00e9"', '"\\\\u0000"', '"\\\\ud800"', '"😀"', '"a\\\\"']) expect(scanJsonText(text), text).toBeNull();
  });

  it('leaves malformed text to JSON.parse', () => {
    for (const text of ['"unterminated', '"\\u00"', '"\\uzzzz"', '{"a":', ']]]]']) expect(scanJsonText(text), text).toBeNull();
  });
});

describe('describeUnstorableValue', () => {
  it('names the first offending string by its path', () => {
    expect(describeUnstorableValue({ data: { tags: ['red', 'a\u0000'] } })).toBe('data.tags[1] must not contain NUL characters');
    expect(describeUnstorableValue({ filters: [{ value: '\ud800' }] })).toBe('filters[0].value must not contain unpaired surrogate characters');
    expect(describeUnstorableValue({ where: { 'odd key': ['=', '\udc00'] } })).toBe('where["odd key"][1] must not contain unpaired surrogate characters');
    expect(describeUnstorableValue('\u0000')).toBe('body must not contain NUL characters');
  });

  it('names the object holding an offending property name, without echoing it', () => {
    expect(describeUnstorableValue({ where: { 'a\u0000': 1 } })).toBe('a property name in where must not contain NUL characters');
    expect(describeUnstorableValue({ '\ud800': 1 })).toBe('a property name in the body must not contain unpaired surrogate characters');
  });

  it('answers null when every string is storable', () => {
    expect(describeUnstorableValue({ a: ['😀', 1, null, { b: 'é' }] })).toBeNull();
  });
});
