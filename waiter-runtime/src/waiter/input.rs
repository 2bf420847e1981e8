//! What a checkpoint is bound to besides its waiter: the identity of the input the wait polls,
//! a digest of the `wait_until_*` arguments ([`InputIdentity`], [`InputDigest`]).

use std::hash::{Hash, Hasher};

/// What a `wait_until_*` argument writes into the digest that binds a
/// [`WaitCheckpoint`](super::WaitCheckpoint) to the input its wait polls, so that a checkpoint
/// of the wait on stream `A` is refused by `wait_until_stream_exists("B")`
/// ([`CheckpointError::OtherInput`](super::CheckpointError::OtherInput)).
///
/// **Every [`Hash`] type has it**, with nothing to write: `&str`, `String`, integers, `bool`,
/// `Option`, `Vec`, tuples, and your types that derive `Hash`. Its value goes through
/// [`Hash::hash`] into an [`InputDigest`], which writes integers little-endian and `usize` as
/// `u64`, so the digest is the same in every process and on every machine of one program.
///
/// **Another type** implements it by hand: write what says which resource it is (and nothing
/// for a client handle, which says none).
///
/// ```
/// use waiter_runtime::waiter::{InputDigest, InputIdentity};
///
/// /// A request type of a client library: not `Hash` (it holds an `f64`).
/// struct DescribeStream { arn: String, timeout_secs: f64 }
///
/// impl InputIdentity for DescribeStream {
///     fn identify(&self, digest: &mut InputDigest) {
///         digest.write_str(&self.arn); // the timeout does not say which stream
///     }
/// }
///
/// let a = DescribeStream { arn: "arn:aws:kinesis:eu-west-1:1:stream/a".into(), timeout_secs: 5.0 };
/// let b = DescribeStream { arn: "arn:aws:kinesis:eu-west-1:1:stream/a".into(), timeout_secs: 9.0 };
/// assert_eq!(InputDigest::of(&a), InputDigest::of(&b));
/// assert_ne!(InputDigest::of(&a), InputDigest::of(&"another stream"));
/// ```
///
/// **When an argument has none** (a type of another crate that is not `Hash`, an `impl Trait`
/// parameter, a generic one without a `Hash` bound), the wait's input is not identified: its
/// checkpoints say so (`input: None`), and resuming one is
/// [`CheckpointError::InputNotIdentified`](super::CheckpointError::InputNotIdentified), naming
/// the argument, never a resume on an input nobody checked. Bind such a wait to a key of your
/// own with [`Waiter::checkpoint_key`](super::Waiter::checkpoint_key), on both sides.
///
/// The digest relies on std's `Hash` impls writing the same bytes in a later Rust release,
/// which they have for years but do not promise: if one ever changes, a checkpoint taken
/// before an upgrade is refused as `OtherInput` (loudly, never resumed on another input).
pub trait InputIdentity {
    /// Writes what identifies `self` into `digest`.
    fn identify(&self, digest: &mut InputDigest);
}

impl<T: Hash + ?Sized> InputIdentity for T {
    fn identify(&self, digest: &mut InputDigest) {
        self.hash(digest);
    }
}

/// A 64-bit digest of a wait's input, the same in every process and on every machine: what
/// [`InputIdentity`] writes into, and a [`Hasher`] (so `value.hash(digest)` writes a `Hash`
/// value). Not a cryptographic hash: it tells inputs apart, it does not resist forgery.
///
/// ```
/// use std::hash::{Hash, Hasher};
/// use waiter_runtime::waiter::InputDigest;
///
/// let mut digest = InputDigest::new();
/// digest.write_str("orders");
/// 42u32.hash(&mut digest);
/// assert_eq!(digest.finish(), { let mut again = InputDigest::new(); again.write_str("orders"); 42u32.hash(&mut again); again.finish() });
/// // A `String` and a `&str` of the same text are one input.
/// assert_eq!(InputDigest::of(&String::from("orders")), InputDigest::of(&"orders"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputDigest {
    state: u64,
    /// Bytes written so far: `"a"` and `"a\0"` differ.
    len: u64,
}

/// The multiplier of the word-at-a-time mix (2^64 / φ, odd).
const K: u64 = 0x9E37_79B9_7F4A_7C15;

impl Default for InputDigest {
    fn default() -> Self {
        Self::new()
    }
}

impl InputDigest {
    /// An empty digest (the input of a waiter without arguments).
    pub const fn new() -> Self {
        InputDigest {
            state: 0x243F_6A88_85A3_08D3,
            len: 0,
        }
    }

    /// The digest of one value.
    pub fn of<T: InputIdentity + ?Sized>(value: &T) -> u64 {
        let mut digest = InputDigest::new();
        value.identify(&mut digest);
        digest.finish()
    }

    /// Writes a string (as `str`'s `Hash` does: its bytes, then a terminator).
    pub fn write_str(&mut self, s: &str) {
        self.write(s.as_bytes());
        self.write_u8(0xff);
    }

    #[inline]
    fn mix(&mut self, word: u64) {
        self.state = (self.state ^ word).wrapping_mul(K);
        self.state ^= self.state >> 29;
    }

    /// Writes a word of `len` bytes (little-endian, zero above them): what `write` does with
    /// those bytes, without the loop.
    #[inline]
    fn word(&mut self, word: u64, len: u64) {
        self.mix(word);
        self.len = self.len.wrapping_add(len);
    }
}

impl Hasher for InputDigest {
    fn finish(&self) -> u64 {
        // SplitMix64's finalizer, over the state and the length.
        let mut z = self.state ^ self.len.wrapping_mul(K);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(word));
        }
        self.len = self.len.wrapping_add(bytes.len() as u64);
    }

    // Integers little-endian and `usize` as `u64`, whatever the machine (the words `write`
    // makes of their bytes).
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.word(u64::from(i), 1);
    }
    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.word(u64::from(i), 2);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.word(u64::from(i), 4);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.word(i, 8);
    }
    fn write_u128(&mut self, i: u128) {
        self.write(&i.to_le_bytes());
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn write_i8(&mut self, i: i8) {
        self.write_u8(i as u8);
    }
    fn write_i16(&mut self, i: i16) {
        self.write_u16(i as u16);
    }
    fn write_i32(&mut self, i: i32) {
        self.write_u32(i as u32);
    }
    fn write_i64(&mut self, i: i64) {
        self.write_u64(i as u64);
    }
    fn write_i128(&mut self, i: i128) {
        self.write_u128(i as u128);
    }
    fn write_isize(&mut self, i: isize) {
        self.write_i64(i as i64);
    }
}

/// The identity of a wait's input, as its waiter holds it: the digest of its arguments (or
/// of the key of [`Waiter::checkpoint_key`](super::Waiter::checkpoint_key)), or the first
/// argument that has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputId {
    Digest(u64),
    /// The name of the first argument whose type has no [`InputIdentity`].
    Unidentified(&'static str),
}

impl InputId {
    /// A waiter without arguments (or made by hand).
    pub(crate) fn none() -> Self {
        InputId::Digest(InputDigest::new().finish())
    }

    /// The digest, if the input is identified.
    pub(crate) fn digest(self) -> Option<u64> {
        match self {
            InputId::Digest(digest) => Some(digest),
            InputId::Unidentified(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The digest is part of stored checkpoints: a change of these values refuses every
    /// checkpoint taken before it, so they are pinned.
    #[test]
    fn digests_are_pinned() {
        assert_eq!(InputDigest::new().finish(), 0xe9e0_033e_3bad_af36);
        assert_eq!(InputDigest::of(&"orders"), 0x67ce_d0aa_63f8_7946);
        assert_eq!(InputDigest::of(&("orders", 3u32)), 0xfd3b_02bb_bbf0_01c0);
    }

    #[test]
    fn inputs_are_told_apart() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..10_000u32 {
            assert!(seen.insert(InputDigest::of(&format!("stream-{i}"))));
            assert!(seen.insert(InputDigest::of(&i)));
        }
        // The integer shortcuts write what `write` writes of their bytes.
        let mut by_bytes = InputDigest::new();
        by_bytes.write(&[7]);
        by_bytes.write(&7u16.to_le_bytes());
        by_bytes.write(&7u32.to_le_bytes());
        by_bytes.write(&7u64.to_le_bytes());
        let mut by_words = InputDigest::new();
        by_words.write_u8(7);
        by_words.write_u16(7);
        by_words.write_u32(7);
        by_words.write_u64(7);
        assert_eq!(by_bytes.finish(), by_words.finish());
        // A string and its zero-padded twin, and the split of one text in two.
        assert_ne!(InputDigest::of(&"a"), InputDigest::of(&"a\0"));
        assert_ne!(InputDigest::of(&("ab", "c")), InputDigest::of(&("a", "bc")));
        assert_ne!(InputDigest::of(&1u32), InputDigest::of(&1u64));
    }
}
