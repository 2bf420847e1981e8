//! Whether the current task is running a waiter's poll.
//!
//! A waiter is itself the retry loop (Smithy waiters, and `rfc-waiters-rust.md` requirement 3):
//! while a poll runs, the operation's own retries must be switched off. The waiter runs each
//! poll inside [`scope_poll`]; the retry layer asks [`in_waiter_poll`] and then makes exactly
//! one attempt.

use std::future::Future;

tokio::task_local! {
    static IN_WAITER_POLL: ();
}

/// Returns `true` while the current task is running a waiter's poll.
///
/// ```
/// use waiter_runtime::waiter::context::{in_waiter_poll, scope_poll};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// assert!(!in_waiter_poll());
/// assert!(scope_poll(async { in_waiter_poll() }).await);
/// # }
/// ```
pub fn in_waiter_poll() -> bool {
    IN_WAITER_POLL.try_with(|_| ()).is_ok()
}

/// Runs `fut` as a waiter's poll: [`in_waiter_poll`] returns `true` inside it.
pub async fn scope_poll<F: Future>(fut: F) -> F::Output {
    IN_WAITER_POLL.scope((), fut).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn flag_is_set_only_inside_the_scope() {
        assert!(!in_waiter_poll());
        assert!(scope_poll(async { in_waiter_poll() }).await);
        assert!(!in_waiter_poll());
    }

    #[tokio::test]
    async fn flag_does_not_leak_into_spawned_tasks() {
        let inner =
            scope_poll(async { tokio::spawn(async { in_waiter_poll() }).await.unwrap() }).await;
        assert!(!inner);
    }
}
