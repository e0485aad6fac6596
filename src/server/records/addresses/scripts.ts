/**
 * Which script a name or an address is written in, where that decides its order. Small and free of
 * the address formatter, so the import's parse thread can split names with it.
 */

/** Kanji and kana: Japanese script (Han is written by Chinese too, whose names also put the family first). */
export const JAPANESE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LATIN_LETTER = /\p{Script=Latin}/u;

/** Whether a name is written family name first: in Japanese script (kanji, kana), with no Latin letter (山田 太郎). */
export function writesFamilyNameFirst(name: string): boolean {
  return JAPANESE_SCRIPT.test(name) && !LATIN_LETTER.test(name);
}

/**
 * A person's name as it is printed and merged (`{{fullName}}`): given name first, except for a name
 * written in Japanese script (kanji, kana), which puts the family name first: 山田 太郎.
 */
export function printedName(c: { firstName: string; lastName: string }): string {
  return (
    writesFamilyNameFirst(`${c.firstName}${c.lastName}`)
      ? `${c.lastName} ${c.firstName}`
      : `${c.firstName} ${c.lastName}`
  ).trim();
}
