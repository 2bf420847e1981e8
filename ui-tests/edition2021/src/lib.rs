//! `#[waitable]` from an edition-2021 crate, where a return-position `impl Trait` does not
//! capture lifetimes implicitly: the waiter functions must still borrow `self`, borrowed
//! parameters and the impl's own lifetimes.

use waiter_runtime::jmespath::Searchable;
use waiter_runtime::{waitable, ProvideErrorMetadata};

/// The example's error.
#[derive(Debug, ProvideErrorMetadata)]
pub enum Error {
    /// Not there yet.
    NotFound,
}

/// The example's output.
#[derive(Debug, Searchable)]
pub struct Thing {
    /// `pending`, then `ok`.
    pub status: String,
}

/// A derived type with a lifetime, a type and a const parameter: its members are reached
/// through accessors returning `impl Searchable`, which must capture them in this edition too.
#[derive(Debug, Searchable)]
pub struct Borrowed<'a, T, const N: usize> {
    /// A borrowed string.
    pub name: &'a str,
    /// Borrowed items.
    pub items: &'a [T],
    /// A fixed-size array.
    pub fixed: [u8; N],
    /// The last member may be unsized elsewhere; here a boxed slice.
    pub tail: Box<[T]>,
}

/// A client borrowing its configuration.
pub struct Client<'c> {
    /// The client's name.
    pub name: &'c str,
    /// Polls so far.
    pub polls: std::sync::atomic::AtomicU32,
}

impl<'c> Client<'c> {
    /// A method of an impl with a lifetime, with an elided borrowed parameter.
    #[waitable(ThingExists: { acceptors: [
        { state: "success", matcher: { output: { path: "status", expected: "ok", comparator: "stringEquals" } } }
        { state: "retry", matcher: { errorType: "NotFound" } } ] })]
    pub async fn get_thing(&self, id: &str, after: u32) -> Result<Thing, Error> {
        let _ = (id, self.name);
        let n = self.polls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        match n {
            0 => Err(Error::NotFound),
            n if n < after => Ok(Thing {
                status: "pending".into(),
            }),
            _ => Ok(Thing {
                status: "ok".into(),
            }),
        }
    }

    /// A generic method returning a borrow of its parameter with the impl's lifetime.
    #[waitable(Echoed: { acceptors: [ { state: "success", matcher: { success: true } } ] })]
    pub async fn echo<T: Clone + Send>(&self, id: &'c str, extra: T) -> Result<&'c str, Error> {
        let _ = extra;
        Ok(id)
    }
}

/// A free function whose only parameter is the `input` of an `inputOutput` path.
#[waitable(Mirrored: { acceptors: [ { state: "success", matcher: { inputOutput: {
    path: "input == output.status", expected: "true", comparator: "booleanEquals" } } } ] })]
pub async fn mirror(id: &str) -> Result<Thing, Error> {
    Ok(Thing {
        status: id.to_owned(),
    })
}
