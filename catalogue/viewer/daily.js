// The daily deal, exactly as ../README.md states it (and solver/catalogue/schedule.py runs it):
// an ES module for the page and for Node (SHA-256 from Web Crypto, global in both).
// A schedule is the manifest's list of epochs {start, method, key}; a version 1 manifest has
// none and means LEGACY_SCHEDULE.

export const LEGACY_SCHEDULE = [{ start: "2026-01-01", method: "affine-fnv1a", key: "" }];

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

// {index, cycle, day, poolSize, epoch} of the entry of catalogue file `file` (its name in the
// manifest) for date `iso`, or null before its schedule starts. Throws on an unknown method.
export async function dailyPick(catalogue, file, schedule, iso) {
  const { entries, variant, tier } = catalogue;
  const sinces = entries.map((entry) => dayNumber(entry.since));
  const day = dayNumber(iso);
  if (!entries.length || day < Math.max(dayNumber(schedule[0].start), Math.min(...sinces))) return null;
  const epoch = schedule.filter((each) => dayNumber(each.start) <= day).pop();
  if (!ORDERS[epoch.method]) throw new Error(`unknown schedule method ${epoch.method}`);
  const { cycle, offset, pool } = cycleDay(sinces, Math.max(dayNumber(epoch.start), Math.min(...sinces)), day);
  const listing = { file, variant, tier, deals: entries.map((entry) => entry.deal) };
  const order = await ORDERS[epoch.method](listing, epoch, cycle, pool);
  return { index: order[offset], cycle, day: offset, poolSize: pool.length, epoch: epoch.start };
}
