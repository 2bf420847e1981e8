//! A `Waiter` is not a future: it runs with `.wait(max_wait)`. Its `Future` impl exists only so
//! that `waiter.await` is an error saying so (`ui-tests/cases/waitable/forgot_wait.rs`); its
//! bound holds for no waiter, so no code can await, poll or `into_future()` one.

use std::future::{Future, IntoFuture, Ready};
use std::marker::PhantomData;

use waiter_runtime::Waiter;

/// `probe::<T>().future()` is true when `T: Future`, `awaitable()` when `T: IntoFuture`:
/// an inherent method whose impl's bound fails gives way to the trait's.
struct Probe<T>(PhantomData<T>);

fn probe<T>() -> Probe<T> {
    Probe(PhantomData)
}

impl<T: Future> Probe<T> {
    fn future(&self) -> bool {
        true
    }
}

impl<T: IntoFuture> Probe<T> {
    fn awaitable(&self) -> bool {
        true
    }
}

trait Otherwise {
    fn future(&self) -> bool {
        false
    }
    fn awaitable(&self) -> bool {
        false
    }
}

impl<T> Otherwise for Probe<T> {}

#[test]
fn a_waiter_is_neither_a_future_nor_an_into_future() {
    // The probe sees a future when there is one.
    assert!(probe::<Ready<()>>().future());
    assert!(probe::<Ready<()>>().awaitable());

    assert!(!probe::<Waiter<'static, String, std::io::Error>>().future());
    assert!(!probe::<Waiter<'static, String, std::io::Error>>().awaitable());
    assert!(!probe::<Waiter<'static, (), (), fn(&waiter_runtime::waiter::PollEvent)>>().future());
}
