/** A set of record ids as one bit per id: 1,000,000 ids take 125 KB, where a Set of them takes megabytes. */
export class IdBitmap {
  private constructor(private bits: Uint8Array) {}

  static of(ids: readonly number[]): IdBitmap {
    let max = 0;
    for (const id of ids) if (id > max) max = id;
    const bitmap = new IdBitmap(new Uint8Array((max >> 3) + 1));
    for (const id of ids) bitmap.set(id, true);
    return bitmap;
  }

  get bytes(): number {
    return this.bits.byteLength;
  }

  has(id: number): boolean {
    const byte = id >> 3;
    return byte < this.bits.length && (this.bits[byte] & (1 << (id & 7))) !== 0;
  }

  set(id: number, member: boolean): void {
    const byte = id >> 3;
    if (byte >= this.bits.length) {
      if (!member) return;
      // Grown by half again at least: records created one by one do not copy it each time.
      const grown = new Uint8Array(Math.max(byte + 1, Math.ceil(this.bits.length * 1.5)));
      grown.set(this.bits);
      this.bits = grown;
    }
    if (member) this.bits[byte] |= 1 << (id & 7);
    else this.bits[byte] &= ~(1 << (id & 7));
  }
}
