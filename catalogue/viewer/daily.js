// The daily deal, exactly as ../README.md states it (and solver/catalogue/schedule.py runs it):
// an ES module for the page and for Node (SHA-256 from Web Crypto, global in both).
// A schedule is the manifest's list of epochs {start, method, key, generation (absent: 1)}; a
// version 1 manifest has none and means LEGACY_SCHEDULE. An epoch serves the files of its
// generation (a tier without one goes on with its newest earlier file).

export const LEGACY_SCHEDULE = [{ start: "2026-01-01", method: "affine-fnv1a", key: "" }];
// From 2027-01-01 (generation 2): the keyed order, each day's deal the first in it not served
// within the last GAP days by the tier's schedule (any epoch, any generation's file).
const SPACED = "keyed-spaced-sha256";
const GAP = 366;

// The manifest's schedule; throws when a manifest after version 1 has none.
export function manifestSchedule(manifest) {
  if (!("schedule" in manifest) && manifest.format_version === 1) return LEGACY_SCHEDULE;
  if (!Array.isArray(manifest.schedule) || !manifest.schedule.length) throw new Error("manifest.json has no schedule");
  return manifest.schedule;
}

function dayNumber(iso) {
  const [year, month, day] = iso.split("-").map(Number);
  return Date.UTC(year, month - 1, day) / 86400000;
}

export function fnv1a32(text) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

function gcd(a, b) { while (b) [a, b] = [b, a % b]; return a; }

function affineMap(key, size) {
  const hash = fnv1a32(key);
  let step = 1 + (Math.floor(hash / size) % size);
  while (gcd(step, size) !== 1) step += 1;
  return [step, hash % size];
}

// The cycle's pool in release 0.1.0's order (step * i stays below 2^53: both are under 2^32 / 2^21).
async function affineOrder(listing, epoch, cycle, pool) {
  const [step, shift] = affineMap(`${listing.variant}/${listing.tier}/${cycle}`, pool.length);
  return pool.map((_, day) => pool[(step * day + shift) % pool.length]);
}

function compareBytes(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

// The cycle's pool sorted by SHA-256 of "key/file/cycle/deal", ties by index.
async function keyedOrder(listing, epoch, cycle, pool) {
  const digests = await Promise.all(pool.map(async (index) => new Uint8Array(await crypto.subtle.digest(
    "SHA-256", new TextEncoder().encode(`${epoch.key}/${listing.file}/${cycle}/${listing.deals[index]}`)))));
  const order = pool.map((index, position) => ({ index, digest: digests[position] }));
  order.sort((a, b) => compareBytes(a.digest, b.digest) || a.index - b.index);
  return order.map((item) => item.index);
}

const ORDERS = { "affine-fnv1a": affineOrder, "keyed-sort-sha256": keyedOrder };

// (cycle, day in it, pool) of day number `day` for cycles from day number `start`.
function cycleDay(sinces, start, day) {
  let cycle = 0;
  for (;;) {
    const pool = [];
    sinces.forEach((since, index) => { if (since <= start) pool.push(index); });
    if (pool.length === sinces.length) {
      const skipped = Math.floor((day - start) / pool.length);
      start += skipped * pool.length;
      cycle += skipped;
    }
    if (day - start < pool.length) return { cycle, offset: day - start, pool };
    start += pool.length;
    cycle += 1;
  }
}

// The schedule's view of a catalogue file (`file`: its name in the manifest).
export function listingOf(catalogue, file) {
  const { entries, variant, tier } = catalogue;
  return { file, variant, tier, sinces: entries.map((entry) => dayNumber(entry.since)), deals: entries.map((entry) => entry.deal) };
}

// The first day an epoch serves a file: its start, or the file's first `since` if later.
function firstDay(listing, epoch) { return Math.max(dayNumber(epoch.start), Math.min(...listing.sinces)); }

// The file an epoch of `generation` serves: the newest generation up to it, or undefined.
function listingFor(listings, generation) {
  const earlier = [...listings.keys()].filter((number) => number <= generation);
  return earlier.length ? listings.get(Math.max(...earlier)) : undefined;
}

// The pick of day number `day` in an epoch whose order depends on the cycle alone.
async function fixedPick(listing, epoch, day) {
  if (!ORDERS[epoch.method]) throw new Error(`unknown schedule method ${epoch.method}`);
  const { cycle, offset, pool } = cycleDay(listing.sinces, firstDay(listing, epoch), day);
  const order = await ORDERS[epoch.method](listing, epoch, cycle, pool);
  return { index: order[offset], cycle, day: offset, poolSize: pool.length, epoch: epoch.start, file: listing.file };
}

// The entry of `remaining` served on day number `day`: the first whose deal was last served
// GAP days or more before (or never); else the one served longest ago (the first of equals).
function spacedChoice(remaining, deals, last, day) {
  const found = remaining.find((index) => !last.has(String(deals[index])) || day - last.get(String(deals[index])) >= GAP);
  if (found !== undefined) return found;
  return remaining.reduce((oldest, index) => (last.get(String(deals[index])) < last.get(String(deals[oldest])) ? index : oldest));
}

// Every day's pick [day, pick] of a spaced epoch from its first day up to day number `end`;
// `carried`: the day each deal (as text) was last served before the epoch.
async function* spacedPicks(listing, epoch, end, carried) {
  const last = new Map(carried);
  let day = firstDay(listing, epoch);
  for (let cycle = 0; day <= end; cycle++) {
    const pool = [];
    listing.sinces.forEach((since, index) => { if (since <= day) pool.push(index); });
    const remaining = await keyedOrder(listing, epoch, cycle, pool);
    for (let offset = 0; offset < pool.length && day <= end; offset++, day++) {
      const index = spacedChoice(remaining, listing.deals, last, day);
      remaining.splice(remaining.indexOf(index), 1);
      last.set(String(listing.deals[index]), day);
      yield [day, { index, cycle, day: offset, poolSize: pool.length, epoch: epoch.start, file: listing.file }, listing];
    }
  }
}

// Every day from day number `first` to `last` that a file of the tier serves: [day, pick,
// listing], in date order (days before a file's first `since`, or with no file, passed over).
async function* served(listings, schedule, first, last) {
  for (let number = 0; number < schedule.length; number++) {
    const epoch = schedule[number];
    const listing = listingFor(listings, epoch.generation ?? 1);
    const end = number + 1 < schedule.length ? Math.min(last, dayNumber(schedule[number + 1].start) - 1) : last;
    if (!listing || !listing.sinces.length || end < Math.max(first, firstDay(listing, epoch))) continue;
    if (epoch.method !== SPACED) {
      for (let day = Math.max(first, firstDay(listing, epoch)); day <= end; day++) yield [day, await fixedPick(listing, epoch, day), listing];
      continue;
    }
    const carried = new Map();
    const start = dayNumber(epoch.start);
    for await (const [day, chosen, earlier] of served(listings, schedule.slice(0, number), start - (GAP - 1), start - 1)) {
      carried.set(String(earlier.deals[chosen.index]), day);
    }
    for await (const each of spacedPicks(listing, epoch, end, carried)) if (each[0] >= first) yield each;
  }
}

// {index, cycle, day, poolSize, epoch, file} of the daily deal of date `iso` among a tier's
// files (`listings`: a Map from generation to listingOf(...), the files the manifest lists for
// one rule set and tier), or null before its schedule starts or when the file is empty.
// Throws on an unknown method, or when no file serves the date's generation.
export async function dailyPickOf(listings, schedule, iso) {
  const day = dayNumber(iso);
  const ruling = schedule.filter((epoch, at) => dayNumber(epoch.start) <= day || at === 0).pop();
  const listing = listingFor(listings, ruling.generation ?? 1);
  if (!listing) throw new Error(`no catalogue file of generation ${ruling.generation} or earlier for ${iso}`);
  if (!listing.sinces.length || day < Math.max(dayNumber(schedule[0].start), Math.min(...listing.sinces))) return null;
  for await (const [, chosen] of served(listings, schedule, day, day)) return chosen;
  return null;
}

// The daily deal of date `iso` in one catalogue file served by every epoch (`file`: its name
// in the manifest): as dailyPickOf.
export async function dailyPick(catalogue, file, schedule, iso) {
  return dailyPickOf(new Map([[1, listingOf(catalogue, file)]]), schedule, iso);
}

// The files of the manifest's rule set and tier of `file`, by generation ({generation: name}).
export function tierFiles(manifest, file) {
  const ruleSet = (each) => [each.variant, each.tier, each.numbering || "pysol", each.foundation_return === true].join("/");
  const record = manifest.files.find((each) => each.file === file);
  const same = (each) => ruleSet(each) === ruleSet(record);
  return new Map(manifest.files.filter(same).map((each) => [each.generation ?? 1, each.file]));
}

// The generations whose files the daily deal of `iso` may read: those of the epochs started by then, and 1.
export function generationsBy(schedule, iso) {
  return new Set([1, ...schedule.filter((epoch) => dayNumber(epoch.start) <= dayNumber(iso)).map((epoch) => epoch.generation ?? 1)]);
}
