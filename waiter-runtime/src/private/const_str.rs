//! Byte-string helpers usable in `const fn`: the compile-time checks of typed paths and of
//! `errorType` codes compare names with them.

/// Whether `a` and `b` hold the same bytes (`==` on slices is not `const`).
pub(crate) const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn lower(b: u8) -> u8 {
    if b.is_ascii_uppercase() { b + 32 } else { b }
}

/// Levenshtein distance, ASCII case-insensitive, of names up to 63 bytes (longer: far).
pub(crate) const fn distance(a: &[u8], b: &[u8]) -> usize {
    if a.len() >= 64 || b.len() >= 64 {
        return usize::MAX;
    }
    let mut prev = [0usize; 64];
    let mut cur = [0usize; 64];
    let mut j = 0;
    while j <= b.len() {
        prev[j] = j;
        j += 1;
    }
    let mut i = 1;
    while i <= a.len() {
        cur[0] = i;
        let mut j = 1;
        while j <= b.len() {
            let cost = if lower(a[i - 1]) == lower(b[j - 1]) {
                0
            } else {
                1
            };
            let mut best = prev[j] + 1;
            if cur[j - 1] + 1 < best {
                best = cur[j - 1] + 1;
            }
            if prev[j - 1] + cost < best {
                best = prev[j - 1] + cost;
            }
            cur[j] = best;
            j += 1;
        }
        prev = cur;
        i += 1;
    }
    prev[b.len()]
}
