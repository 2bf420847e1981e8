//! Changing a waiter's output or error type, so that waiters of different types join one
//! [`WaitAll`](super::WaitAll).

use std::sync::Arc;

use super::acceptor::Polled;
use super::poller::box_poller;
use super::{PollObserver, Waiter};

impl<'a, O, E, Obs: PollObserver> Waiter<'a, O, E, Obs> {
    /// The same waiter, its final output passed through `f` (`FinalPoll::result`,
    /// `WaiterError::last_result`...).
    ///
    /// The acceptors still read the operation's own output: `f` runs after they matched. Use
    /// it to put waiters of different outputs in one [`WaitAll`](super::WaitAll), with an enum
    /// of your own or `Box<dyn Any + Send>`:
    ///
    /// ```
    /// use std::time::Duration;
    /// use waiter_runtime::{Searchable, WaitAll, waitable};
    ///
    /// #[derive(Debug, Searchable)]
    /// struct Instance { state: String }
    /// #[derive(Debug, Searchable)]
    /// struct Table { status: String }
    ///
    /// #[waitable(InstanceRunning: { acceptors: [{ state: "success", matcher: { output: {
    ///     path: "state", expected: "running", comparator: "stringEquals" } } }] })]
    /// async fn describe_instance(id: String) -> Result<Instance, std::io::Error> {
    ///     let _ = id;
    ///     Ok(Instance { state: "running".into() })
    /// }
    /// #[waitable(TableExists: { acceptors: [{ state: "success", matcher: { output: {
    ///     path: "status", expected: "ACTIVE", comparator: "stringEquals" } } }] })]
    /// async fn describe_table(name: String) -> Result<Table, std::io::Error> {
    ///     let _ = name;
    ///     Ok(Table { status: "ACTIVE".into() })
    /// }
    ///
    /// #[derive(Debug)]
    /// enum Ready { Instance(Instance), Table(Table) }
    ///
    /// # #[tokio::main(flavor = "current_thread", start_paused = true)]
    /// # async fn main() {
    /// let results = WaitAll::new([
    ///     wait_until_instance_running("i-1".into()).map_output(Ready::Instance),
    ///     wait_until_table_exists("orders".into()).map_output(Ready::Table),
    /// ])
    /// .wait(Duration::from_secs(600))
    /// .await;
    /// assert!(matches!(results[1].as_ref().unwrap().output(), Some(Ready::Table(t)) if t.status == "ACTIVE"));
    /// # }
    /// ```
    pub fn map_output<O2, F>(self, f: F) -> Waiter<'a, O2, E, Obs>
    where
        O: 'a,
        E: 'a,
        F: Fn(O) -> O2 + Send + Sync + 'a,
    {
        self.map_result(move |result| result.map(&f))
    }

    /// The same waiter, its errors passed through `f` (`FinalPoll::result`,
    /// `WaiterError::OperationFailed`, `WaiterError::last_result`...).
    ///
    /// The acceptors and the retries still see the operation's own error: `f` runs after them
    /// (call [`retry`](Self::retry) before `map_err`). With `Box<dyn Error + Send + Sync>`,
    /// waiters of different clients join one [`WaitAll`](super::WaitAll):
    ///
    /// ```
    /// use std::error::Error;
    /// use waiter_runtime::{ProvideErrorMetadata, Waiter, waitable};
    ///
    /// #[derive(Debug, ProvideErrorMetadata)]
    /// enum DbError { NotFound }
    /// impl std::fmt::Display for DbError {
    ///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { f.write_str("not found") }
    /// }
    /// impl Error for DbError {}
    ///
    /// #[waitable(TableExists: { acceptors: [{ state: "success", matcher: { success: true } }] })]
    /// async fn describe_table() -> Result<(), DbError> {
    ///     Ok(())
    /// }
    ///
    /// type BoxError = Box<dyn Error + Send + Sync>;
    /// let waiter: Waiter<'_, (), BoxError> = wait_until_table_exists().map_err(BoxError::from);
    /// # drop(waiter);
    /// ```
    pub fn map_err<E2, F>(self, f: F) -> Waiter<'a, O, E2, Obs>
    where
        O: 'a,
        E: 'a,
        F: Fn(E) -> E2 + Send + Sync + 'a,
    {
        self.map_result(move |result| result.map_err(&f))
    }

    fn map_result<O2, E2, F>(self, f: F) -> Waiter<'a, O2, E2, Obs>
    where
        O: 'a,
        E: 'a,
        F: Fn(Result<O, E>) -> Result<O2, E2> + Send + Sync + 'a,
    {
        let f = Arc::new(f);
        self.map_poller(move |mut poller| {
            box_poller(move || {
                let (poll, f) = (poller(), Arc::clone(&f));
                async move {
                    let Polled { result, matched } = poll.await;
                    Polled::new(f(result), matched)
                }
            })
        })
    }
}
