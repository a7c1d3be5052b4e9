// The daily deal, exactly as ../README.md states it (and solver/catalogue/schedule.py runs it).
"use strict";

const EPOCH = "2026-01-01";

function dayNumber(iso) {
  const [year, month, day] = iso.split("-").map(Number);
  return Date.UTC(year, month - 1, day) / 86400000;
}

function fnv1a32(text) {
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

// {index, cycle, day, poolSize} of the entry for date `iso`, or null before the schedule starts.
function dailyPick(entries, variant, tier, iso) {
  const sinces = entries.map((entry) => dayNumber(entry.since));
  const day = dayNumber(iso);
  let start = Math.max(dayNumber(EPOCH), Math.min(...sinces));
  let cycle = 0;
  if (!entries.length || day < start) return null;
  for (;;) {
    const pool = [];
    sinces.forEach((since, index) => { if (since <= start) pool.push(index); });
    const size = pool.length;
    if (size === sinces.length) {
      const skipped = Math.floor((day - start) / size);
      start += skipped * size;
      cycle += skipped;
    }
    const offset = day - start;
    if (offset < size) {
      const [step, shift] = affineMap(`${variant}/${tier}/${cycle}`, size);
      return { index: pool[(step * offset + shift) % size], cycle, day: offset, poolSize: size };
    }
    start += size;
    cycle += 1;
  }
}
