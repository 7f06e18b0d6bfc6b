import { describe, expect, it } from 'vitest';
import { fromTokens, mentionQuery, splitMentions, toTokens, tokenName } from './mentions';

describe('mention tokens', () => {
  it('turns chosen @names into the specification token, longest name first', () => {
    const mentions = [
      { id: 2, name: 'Ada' },
      { id: 3, name: 'Ada Lovelace' },
    ];
    expect(toTokens('@Ada Lovelace and @Ada, see this', mentions)).toBe('@{3:Ada Lovelace} and @{2:Ada}, see this');
  });

  it('leaves an @name nobody chose as text', () => {
    expect(toTokens('mail @someone', [{ id: 2, name: 'Ada' }])).toBe('mail @someone');
  });

  it('splits stored content into text and mentions, and back for editing', () => {
    const content = '@{2:Ada Lovelace} can you confirm? cc @{5:Bob}';
    expect(splitMentions(content)).toEqual([{ id: 2, name: 'Ada Lovelace' }, ' can you confirm? cc ', { id: 5, name: 'Bob' }]);
    const editable = fromTokens(content);
    expect(editable.text).toBe('@Ada Lovelace can you confirm? cc @Bob');
    expect(toTokens(editable.text, editable.mentions)).toBe(content);
  });

  it('finds the @query before the caret only at a word start', () => {
    expect(mentionQuery('hello @Ad', 9)).toEqual({ start: 6, query: 'Ad' });
    expect(mentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQuery('mail a@b', 8)).toBeNull();
    expect(mentionQuery('hello @Ad more', 14)).toBeNull();
  });

  it('keeps braces out of a token name', () => {
    expect(tokenName(' Ada {x} ')).toBe('Ada x');
  });
});
