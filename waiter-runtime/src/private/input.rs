//! The identity of a `wait_until_*` function's arguments, as `#[waitable]`'s code finds it
//! (`waiter::InputIdentity`): an argument whose type has one writes into the digest; for any
//! other (autoref: `UnidentifiedArgument` applies to `&Probe`, so it is picked only where
//! `IdentifyArgument` does not), the code names the argument.

pub use crate::waiter::InputDigest;
use crate::waiter::InputIdentity;
use crate::waiter::Waiter;
use crate::waiter::input::InputId;

/// One argument, probed.
pub struct Probe<'a, T: ?Sized>(pub &'a T);

/// An argument whose type has an identity: written into the digest.
pub trait IdentifyArgument {
    fn __identify(&self, digest: &mut InputDigest) -> bool;
}

impl<T: InputIdentity + ?Sized> IdentifyArgument for Probe<'_, T> {
    #[inline]
    fn __identify(&self, digest: &mut InputDigest) -> bool {
        self.0.identify(digest);
        true
    }
}

/// Any other argument: nothing written, `false`.
pub trait UnidentifiedArgument {
    fn __identify(&self, digest: &mut InputDigest) -> bool;
}

impl<T: ?Sized> UnidentifiedArgument for &Probe<'_, T> {
    #[inline]
    fn __identify(&self, _: &mut InputDigest) -> bool {
        false
    }
}

fn input(digest: InputDigest, unidentified: Option<&'static str>) -> InputId {
    use std::hash::Hasher;
    match unidentified {
        Some(argument) => InputId::Unidentified(argument),
        None => InputId::Digest(digest.finish()),
    }
}

/// The waiter, bound to the input its arguments identify.
#[inline]
pub fn bind_input<'a, O, E>(
    waiter: Waiter<'a, O, E>,
    digest: InputDigest,
    unidentified: Option<&'static str>,
) -> Waiter<'a, O, E> {
    waiter.bind_input(input(digest, unidentified))
}

/// [`bind_input`] for a plain `fn`'s waiters.
#[inline]
pub fn bind_blocking_input<'a, O, E>(
    waiter: crate::blocking::Waiter<'a, O, E>,
    digest: InputDigest,
    unidentified: Option<&'static str>,
) -> crate::blocking::Waiter<'a, O, E> {
    waiter.bind_input(input(digest, unidentified))
}
