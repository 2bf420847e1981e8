//! Smithy data-model conversions for members that need one: blobs and timestamps.
//!
//! `#[derive(Searchable)]` calls these for fields marked `#[searchable(blob)]` or
//! `#[searchable(timestamp)]`; you can call them from a hand-written [`Searchable`] impl too.
//!
//! ```
//! use std::time::{Duration, SystemTime};
//! use waiter_runtime::jmespath;
//! use waiter_runtime::jmespath::Searchable;
//!
//! #[derive(Searchable)]
//! struct Object {
//!     #[searchable(blob)]
//!     body: Vec<u8>,
//!     #[searchable(timestamp)]
//!     last_modified: Option<SystemTime>,
//! }
//!
//! let object = Object {
//!     body: b"hi".to_vec(),
//!     last_modified: Some(SystemTime::UNIX_EPOCH + Duration::from_millis(1500)),
//! };
//! assert_eq!(jmespath!("body").search(&object).unwrap(), serde_json::json!("aGk="));
//! assert_eq!(jmespath!("last_modified").search(&object).unwrap(), serde_json::json!(1.5));
//! ```
//!
//! [`Searchable`]: super::Searchable

use std::borrow::Cow;
use std::time::SystemTime;

use super::view::Node;

/// A timestamp as a JMESPath number: seconds since the Unix epoch, fractional part kept.
pub fn timestamp(t: &SystemTime) -> Node<'static> {
    let secs = match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => d.as_secs_f64(),
        Err(e) => -e.duration().as_secs_f64(),
    };
    Node::from_f64(secs)
}

/// A blob as a JMESPath string: standard base64 with padding.
pub fn blob(bytes: &[u8]) -> Node<'static> {
    Node::String(Cow::Owned(base64(bytes)))
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Values that `#[searchable(timestamp)]` accepts.
pub trait AsTimestamp {
    /// The value as seconds since the Unix epoch (`null` for `None`).
    fn timestamp_node(&self) -> Node<'static>;
}

impl AsTimestamp for SystemTime {
    fn timestamp_node(&self) -> Node<'static> {
        timestamp(self)
    }
}

impl<T: AsTimestamp + ?Sized> AsTimestamp for &T {
    fn timestamp_node(&self) -> Node<'static> {
        (**self).timestamp_node()
    }
}

impl<T: AsTimestamp> AsTimestamp for Option<T> {
    fn timestamp_node(&self) -> Node<'static> {
        self.as_ref()
            .map_or(Node::Null, AsTimestamp::timestamp_node)
    }
}

/// Values that `#[searchable(blob)]` accepts: anything that is bytes, and `Option`s of them.
pub trait AsBlob {
    /// The bytes as a base64 string (`null` for `None`).
    fn blob_node(&self) -> Node<'static>;
}

impl AsBlob for [u8] {
    fn blob_node(&self) -> Node<'static> {
        blob(self)
    }
}

impl AsBlob for Vec<u8> {
    fn blob_node(&self) -> Node<'static> {
        blob(self)
    }
}

impl<const N: usize> AsBlob for [u8; N] {
    fn blob_node(&self) -> Node<'static> {
        blob(self)
    }
}

impl<T: AsBlob + ?Sized> AsBlob for &T {
    fn blob_node(&self) -> Node<'static> {
        (**self).blob_node()
    }
}

impl<T: AsBlob + ?Sized> AsBlob for Box<T> {
    fn blob_node(&self) -> Node<'static> {
        (**self).blob_node()
    }
}

impl<T: AsBlob> AsBlob for Option<T> {
    fn blob_node(&self) -> Node<'static> {
        self.as_ref().map_or(Node::Null, AsBlob::blob_node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (input, output) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(input.as_bytes()), output);
        }
    }

    #[test]
    fn timestamps_are_epoch_seconds() {
        use std::time::Duration;
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(timestamp(&t), serde_json::json!(1_700_000_000));
        let before = SystemTime::UNIX_EPOCH - Duration::from_millis(500);
        assert_eq!(timestamp(&before), serde_json::json!(-0.5));
    }
}
