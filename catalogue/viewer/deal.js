// Deal numbers: the opening board of deal N as PySolFC or KDE Patience numbers it, as
// solver/numbering.py deals it (an ES module for the page and for Node).
//
// pysol: PySolFC's game N (Yukon and Russian Solitaire deal alike; Milligan Yukon is
//   Lexington Harp): the Microsoft FreeCell shuffle below 32000, a Mersenne Twister seeded
//   as Python's random.Random(N) from 32000 to 10^20.
// ms: PySolFC's game "msN" (1 to 2^33 - 1), the Microsoft shuffle for every N.
// kpat: KDE Patience's Yukon deal N (1 to 2^31 - 1); KPat has no Milligan Yukon.
// Every program shuffles a deck, then deals it from the end along its deal plan.
// A deal number is a Number up to 2^53, or a BigInt or a string of digits beyond.

import { RANKS, SUITS, makeRules } from "./rules.js";

export const MAX_DEAL = { pysol: 10n ** 20n, ms: 2n ** 33n - 1n, kpat: 2n ** 31n - 1n };
export const NUMBERINGS = Object.keys(MAX_DEAL);
const PYSOL_FIRST_MT_DEAL = 32000n;

// Our suit indexes (S H D C) for each program's suit order.
const PYSOL_SUITS = [3, 0, 1, 2]; // clubs, spades, hearts, diamonds
const KPAT_SUITS = [3, 2, 1, 0]; // clubs, diamonds, hearts, spades

const range = (first, end) => Array.from({ length: end - first }, (_, at) => first + at);

// Rounds of a deal: the columns that receive one card each, in order.
const PYSOL_YUKON_PLAN = [...range(1, 7).map((first) => range(first, 7)), ...range(0, 4).map(() => range(1, 7)), range(0, 7)];
const YUKON_COLUMN_SIZES = [1, 6, 7, 8, 9, 10, 11];
const KPAT_YUKON_PLAN = range(0, 11).map((row) => range(0, 7).filter((column) => row < YUKON_COLUMN_SIZES[column]));
const PYSOL_MILLIGAN_PLAN = [...range(1, 8).map((first) => range(first, 8)), range(0, 8)];

function card(rank, suit) { return RANKS[rank - 1] + SUITS[suit]; }

// A deal number as a BigInt; throws on anything but a whole number.
export function dealNumber(number) {
  if (typeof number === "bigint") return number;
  if (typeof number === "number" && Number.isSafeInteger(number)) return BigInt(number);
  if (typeof number === "string" && /^\d{1,30}$/.test(number)) return BigInt(number);
  throw new Error(`deal number ${number} is not a whole number`);
}

// The opening board of deal `number` of `variant` under `numbering` ("pysol", "ms", "kpat").
export function dealBoard(variant, number, numbering = "pysol") {
  const rules = makeRules(variant);
  const deal = dealNumber(number);
  if (!(numbering in MAX_DEAL)) throw new Error(`unknown numbering ${numbering} (choose one of ${NUMBERINGS.join(", ")})`);
  if (numbering === "kpat" && variant === "milligan") throw new Error("kpat numbering has no milligan deals (KPat has no Milligan Yukon)");
  if (deal < 1n || deal > MAX_DEAL[numbering]) {
    throw new Error(`deal number ${deal} is out of range for ${numbering} numbering (1..${MAX_DEAL[numbering]})`);
  }
  const decks = rules.variant === "milligan" ? 2 : 1;
  if (numbering === "kpat") return boardFromPlan(msShuffle(msDeck(), deal).reverse(), KPAT_YUKON_PLAN, 7);
  const plan = variant === "milligan" ? PYSOL_MILLIGAN_PLAN : PYSOL_YUKON_PLAN;
  return boardFromPlan(pysolDealingOrder(deal, decks, numbering === "ms"), plan, decks === 2 ? 8 : 7);
}

function boardFromPlan(order, plan, columnCount) {
  const columns = range(0, columnCount).map(() => []);
  let next = 0;
  for (const round of plan) for (const column of round) columns[column].push(order[next++]);
  return { columns, down: range(0, columnCount), foundations: new Array(4 * (columnCount - 6)).fill(0), stock: order.slice(next) };
}

function pysolDealingOrder(deal, decks, microsoft) {
  if (microsoft || deal < PYSOL_FIRST_MT_DEAL) return msShuffle(decks === 1 ? msDeck() : pysolDeck(decks), deal).reverse();
  return mtShuffle(pysolDeck(decks), deal).reverse();
}

function pysolDeck(decks) {
  return range(0, decks).flatMap(() => PYSOL_SUITS.flatMap((suit) => range(1, 14).map((rank) => card(rank, suit))));
}

// One deck rank by rank, Aces first, suits C D H S within a rank (FreeCell's, KPat's order).
function msDeck() { return range(1, 14).flatMap((rank) => KPAT_SUITS.map((suit) => card(rank, suit))); }

// Microsoft's rand() as PySolFC's LCRandom31 extends it: bit 15 set from seed 2^31; from
// 2^32 the seed less 2^32, giving 16-bit values plus one.
function msRandom(seed) {
  const wide = seed >= 2n ** 32n;
  const high = seed >= 2n ** 31n && !wide ? 0x8000 : 0;
  let state = Number(wide ? seed - 2n ** 32n : seed);
  return () => {
    state = (Math.imul(state, 214013) + 2531011) >>> 0;
    return wide ? ((state >>> 16) & 0xffff) + 1 : ((state >>> 16) & 0x7fff) | high;
  };
}

// From the last slot down, swap it with the slot a random value names.
function shuffleWith(cards, partner) {
  const shuffled = cards.slice();
  for (let last = shuffled.length - 1; last > 0; last--) {
    const other = partner(last + 1);
    [shuffled[last], shuffled[other]] = [shuffled[other], shuffled[last]];
  }
  return shuffled;
}

function msShuffle(cards, seed) {
  const random = msRandom(seed);
  return shuffleWith(cards, (slots) => random() % slots);
}

function mtShuffle(cards, seed) {
  const random = pythonRandom(seed);
  return shuffleWith(cards, (slots) => Math.floor(random() * slots));
}

// Python's random.Random(seed).random for a whole seed >= 0: MT19937 seeded by
// init_by_array over the seed's 32-bit words, least significant first.
export function pythonRandom(seed) {
  const key = [];
  for (let rest = seed; rest > 0n || !key.length; rest >>= 32n) key.push(Number(rest & 0xffffffffn));
  const state = initByArray(key);
  let index = 624;
  const next = () => {
    if (index >= 624) { twist(state); index = 0; }
    let value = state[index++];
    value ^= value >>> 11;
    value = (value ^ ((value << 7) & 0x9d2c5680)) >>> 0;
    value = (value ^ ((value << 15) & 0xefc60000)) >>> 0;
    return (value ^ (value >>> 18)) >>> 0;
  };
  return () => ((next() >>> 5) * 67108864 + (next() >>> 6)) / 9007199254740992;
}

function initGenrand(seed) {
  const state = new Uint32Array(624);
  state[0] = seed;
  for (let i = 1; i < 624; i++) {
    const previous = state[i - 1] ^ (state[i - 1] >>> 30);
    state[i] = Math.imul(previous, 1812433253) + i;
  }
  return state;
}

function initByArray(key) {
  const state = initGenrand(19650218);
  let i = 1;
  let j = 0;
  for (let k = Math.max(624, key.length); k > 0; k--) {
    const previous = state[i - 1] ^ (state[i - 1] >>> 30);
    state[i] = (state[i] ^ Math.imul(previous, 1664525)) + key[j] + j;
    i += 1; j += 1;
    if (i >= 624) { state[0] = state[623]; i = 1; }
    if (j >= key.length) j = 0;
  }
  for (let k = 623; k > 0; k--) {
    const previous = state[i - 1] ^ (state[i - 1] >>> 30);
    state[i] = (state[i] ^ Math.imul(previous, 1566083941)) - i;
    i += 1;
    if (i >= 624) { state[0] = state[623]; i = 1; }
  }
  state[0] = 0x80000000;
  return state;
}

function twist(state) {
  for (let i = 0; i < 624; i++) {
    const y = (state[i] & 0x80000000) | (state[(i + 1) % 624] & 0x7fffffff);
    state[i] = state[(i + 397) % 624] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
  }
}
