//! `#[waitable]` on hand-written clients: `success` and `errorType` matchers, signatures
//! forwarded faithfully, metadata, on tokio's paused clock.

use std::sync::Mutex;
use std::time::Duration;

use waiter_runtime::waiter::{AcceptorState, PollEvent, WaiterMetadata};
use waiter_runtime::{ProvideErrorMetadata, WaiterError, waitable};

const fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[derive(Debug, Clone, PartialEq)]
enum S3Error {
    NotFound,
    AccessDenied,
    Coded(&'static str),
}

impl std::fmt::Display for S3Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}
impl std::error::Error for S3Error {}

impl ProvideErrorMetadata for S3Error {
    fn code(&self) -> Option<&str> {
        match self {
            S3Error::NotFound => Some("NotFound"),
            S3Error::AccessDenied => Some("AccessDenied"),
            S3Error::Coded(code) => Some(code),
        }
    }
}

/// A fake S3: `head_bucket` returns the scripted results in turn (the last one repeats).
struct S3 {
    script: Vec<Result<(), S3Error>>,
    calls: Mutex<Vec<String>>,
}

impl S3 {
    fn new(script: Vec<Result<(), S3Error>>) -> Self {
        S3 {
            script,
            calls: Mutex::new(Vec::new()),
        }
    }

    fn next(&self, name: &str) -> Result<(), S3Error> {
        let mut calls = self.calls.lock().unwrap();
        calls.push(name.to_owned());
        self.script[(calls.len() - 1).min(self.script.len() - 1)].clone()
    }

    /// The spec's first example, pasted unchanged (IDL form).
    #[waitable(
        BucketExists: {
            documentation: "Wait until a bucket exists"
            acceptors: [
                {
                    state: "success"
                    matcher: {
                        success: true
                    }
                }
                {
                    state: "retry"
                    matcher: {
                        errorType: "NotFound"
                    }
                }
            ]
        }
    )]
    pub async fn head_bucket(&self, bucket: &str) -> Result<(), S3Error> {
        self.next(bucket)
    }

    /// JSON AST form, with the outer braces; absolute shape IDs and dotted wire codes.
    #[waitable({
        "BucketNotExists": {
            "acceptors": [
                { "state": "success", "matcher": { "errorType": "com.amazonaws.s3#NotFound" } },
                { "state": "retry", "matcher": { "errorType": "Throttling.Slow" } }
            ],
            "minDelay": 5,
            "maxDelay": 10,
            "deprecated": true,
            "tags": ["s3", "cleanup"]
        },
        "DBInstanceAvailable": {
            "acceptors": [ { "state": "success", "matcher": { "success": true } } ]
        }
    })]
    pub async fn head_bucket_json(&self, bucket: String) -> Result<(), S3Error> {
        self.next(&bucket)
    }
}

#[tokio::test(start_paused = true)]
async fn bucket_exists_retries_on_not_found_then_succeeds() {
    let s3 = S3::new(vec![Err(S3Error::NotFound), Err(S3Error::NotFound), Ok(())]);
    let done = s3
        .wait_until_bucket_exists("my-bucket")
        .seed(1)
        .wait(secs(300))
        .await
        .unwrap();
    assert_eq!(done.polls, 3);
    assert_eq!(*s3.calls.lock().unwrap(), ["my-bucket"; 3]);
}

#[tokio::test(start_paused = true)]
async fn bucket_exists_fails_on_any_other_error() {
    let s3 = S3::new(vec![Err(S3Error::NotFound), Err(S3Error::AccessDenied)]);
    let err = s3
        .wait_until_bucket_exists("b")
        .wait(secs(300))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            WaiterError::OperationFailed {
                error: S3Error::AccessDenied,
                polls: 2,
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn bucket_exists_gives_up_at_the_max_wait() {
    let s3 = S3::new(vec![Err(S3Error::NotFound)]);
    let start = tokio::time::Instant::now();
    let err = s3
        .wait_until_bucket_exists("b")
        .wait(secs(300))
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::ExceededMaxWait { .. }),
        "{err:?}"
    );
    // Polls that take no time: the last one leaves 1 ms before the deadline (the spec's table
    // polls at 300 s, where a request could not answer).
    assert_eq!(start.elapsed(), secs(300) - Duration::from_millis(1));
    assert!(matches!(err.last_result(), Some(Err(S3Error::NotFound))));
}

#[tokio::test(start_paused = true)]
#[allow(deprecated)]
async fn json_form_absolute_shape_ids_and_model_delays() {
    let s3 = S3::new(vec![
        Ok(()),
        Err(S3Error::Coded("Throttling.Slow")),
        Err(S3Error::NotFound),
    ]);
    let mut delays = Vec::new();
    let done = s3
        .wait_until_bucket_not_exists("b".to_owned())
        .on_poll(|e: &PollEvent| delays.push(e.next_delay))
        .wait(secs(300))
        .await
        .unwrap();
    assert_eq!(
        done.error(),
        Some(&S3Error::NotFound),
        "a waiter can succeed on an error"
    );
    assert_eq!(delays.len(), 3);
    for delay in delays.iter().flatten() {
        assert!(secs(5) <= *delay && *delay <= secs(10), "{delay:?}");
    }
    assert_eq!(delays[2], None);
}

#[test]
#[allow(deprecated)]
fn metadata_is_readable_as_consts() {
    const M: WaiterMetadata = S3::BUCKET_NOT_EXISTS_WAITER;
    assert_eq!(
        (M.name, M.operation),
        ("BucketNotExists", "head_bucket_json")
    );
    assert_eq!(
        (M.min_delay, M.max_delay, M.deprecated),
        (secs(5), secs(10), true)
    );
    assert_eq!(M.tags, ["s3", "cleanup"]);
    assert_eq!(
        S3::BUCKET_EXISTS_WAITER.documentation,
        Some("Wait until a bucket exists")
    );
    assert_eq!(S3::BUCKET_EXISTS_WAITER.min_delay, secs(2));
    assert_eq!(S3::BUCKET_EXISTS_WAITER.max_delay, secs(120));
    assert_eq!(S3::DB_INSTANCE_AVAILABLE_WAITER.name, "DBInstanceAvailable");
}

#[tokio::test(start_paused = true)]
async fn snake_case_names_follow_heck() {
    let s3 = S3::new(vec![Ok(())]);
    let done = s3
        .wait_until_db_instance_available("x".to_owned())
        .wait(secs(1))
        .await
        .unwrap();
    assert_eq!(done.polls, 1);
}

// ---- free functions, generics, lifetimes, where-clauses, cloned parameters ----

#[derive(Debug, Clone, PartialEq)]
struct Job {
    id: u32,
}

/// The error's code comes from the derive (the variant name).
#[derive(Debug, waiter_runtime::ProvideErrorMetadata)]
enum Busy {
    Busy,
}

static JOB_POLLS: Mutex<Vec<(u32, String)>> = Mutex::new(Vec::new());

/// A free generic function with a where-clause, an owned `Clone` parameter and a borrowed one.
#[waitable(JobDone: { acceptors: [ { state: "success", matcher: { success: true } }, { state: "retry", matcher: { errorType: "Busy" } } ] minDelay: 1 maxDelay: 1 })]
#[allow(clippy::needless_lifetimes)] // explicit on purpose: the waiter forwards named lifetimes
async fn run_job<'a, T>(job: Job, label: &'a str, extra: T) -> Result<String, Busy>
where
    T: ToString + Clone,
{
    let mut polls = JOB_POLLS.lock().unwrap();
    polls.push((job.id, format!("{label}{}", extra.to_string())));
    if polls.len() < 3 {
        Err(Busy::Busy)
    } else {
        Ok(format!("job {} done", job.id))
    }
}

#[tokio::test(start_paused = true)]
async fn free_generic_functions_get_a_waiter_with_cloned_parameters() {
    let label = String::from("L");
    let done = wait_until_job_done(Job { id: 7 }, &label, 5u8)
        .wait(secs(60))
        .await
        .unwrap();
    assert_eq!(done.output().map(String::as_str), Some("job 7 done"));
    assert_eq!(done.elapsed, secs(2));
    assert_eq!(
        *JOB_POLLS.lock().unwrap(),
        [
            (7, "L5".to_owned()),
            (7, "L5".to_owned()),
            (7, "L5".to_owned())
        ]
    );
    assert_eq!(JOB_DONE_WAITER.min_delay, secs(1));
}

struct Generic<C> {
    inner: C,
}

impl<C: AsRef<str> + Sync> Generic<C> {
    /// Method in a generic impl, with a const generic, a returned borrow of `self`, and a
    /// parameter whose type has an elided lifetime.
    #[waitable(Echo: { acceptors: [ { state: "success", matcher: { success: true } } ] })]
    async fn echo<const N: usize>(&self, _prefix: std::borrow::Cow<'_, str>) -> Result<&str, Busy> {
        Ok(&self.inner.as_ref()[..N])
    }
}

#[tokio::test(start_paused = true)]
async fn generic_impls_const_generics_and_borrowed_outputs() {
    let g = Generic {
        inner: String::from("hello"),
    };
    let done = g
        .wait_until_echo::<2>("p".into())
        .wait(secs(1))
        .await
        .unwrap();
    assert_eq!(done.output(), Some(&"he"));
}

/// Something that hands out pages of its own associated type.
trait Source {
    type Page: waiter_runtime::Searchable + Send + Sync;
    fn page(&self) -> Self::Page;
}

#[derive(Debug, waiter_runtime::Searchable)]
struct Page {
    state: String,
}

struct Finished;

impl Source for Finished {
    type Page = Page;
    fn page(&self) -> Page {
        Page {
            state: "DONE".to_owned(),
        }
    }
}

/// Outputs that are a parameter's associated type (`Q::Page`): the typed-path check cannot name
/// them from a nested const, so they are searched at run time (before, the expansion named
/// `Q::Page` in a const item: E0401 in the user's crate).
#[waitable(PageDone: { acceptors: [ { state: "success", matcher: { output: { path: "state", expected: "DONE", comparator: "stringEquals" } } } ] minDelay: 1 maxDelay: 1 })]
async fn read_page<Q: Source + Sync>(source: &Q) -> Result<Q::Page, Busy> {
    Ok(source.page())
}

struct Pager<S> {
    source: S,
}

impl<S: Source + Sync> Pager<S> {
    #[waitable(Current: { acceptors: [ { state: "success", matcher: { output: { path: "state", expected: "DONE", comparator: "stringEquals" } } } ] })]
    async fn current(&self) -> Result<S::Page, Busy> {
        Ok(self.source.page())
    }
}

#[tokio::test(start_paused = true)]
async fn outputs_that_are_associated_types_of_parameters() {
    let done = wait_until_page_done(&Finished).wait(secs(5)).await.unwrap();
    assert_eq!(done.output().map(|p| p.state.as_str()), Some("DONE"));
    let pager = Pager { source: Finished };
    let done = pager.wait_until_current().wait(secs(5)).await.unwrap();
    assert_eq!(done.output().map(|p| p.state.as_str()), Some("DONE"));
}

#[tokio::test(start_paused = true)]
async fn the_waiter_future_is_send_when_the_operation_is() {
    fn assert_send<T: Send>(t: T) -> T {
        t
    }
    let s3 = std::sync::Arc::new(S3::new(vec![Ok(())]));
    let handle = tokio::spawn(async move {
        assert_send(s3.wait_until_bucket_exists("b").wait(secs(5)))
            .await
            .map(|d| d.polls)
    });
    assert_eq!(handle.await.unwrap().unwrap(), 1);
}

#[tokio::test(start_paused = true)]
async fn observer_sees_states_from_the_acceptors() {
    let s3 = S3::new(vec![Err(S3Error::NotFound), Ok(())]);
    let mut states = Vec::new();
    s3.wait_until_bucket_exists("b")
        .on_poll(|e: &PollEvent| states.push((e.state, e.acceptor)))
        .wait(secs(60))
        .await
        .unwrap();
    assert_eq!(
        states,
        [
            (AcceptorState::Retry, Some(1)),
            (AcceptorState::Success, Some(0))
        ]
    );
}

struct Configured;

impl Configured {
    /// `#[cfg]` after `#[waitable]` reaches the macro, which puts it on the waiter too: this
    /// compiles only if `wait_until_gone` and `GONE_WAITER` vanish with `gone`.
    #[waitable(Gone: { acceptors: [ { state: "success", matcher: { success: true } } ] })]
    #[cfg(any())]
    pub(self) async fn gone(&self) -> Result<(), Busy> {
        Ok(())
    }

    #[waitable(Gone: { acceptors: [ { state: "success", matcher: { success: true } } ] })]
    #[cfg(not(any()))]
    pub(self) async fn present(&self) -> Result<(), Busy> {
        Ok(())
    }
}

#[tokio::test(start_paused = true)]
async fn cfg_attributes_follow_the_operation() {
    assert_eq!(
        Configured
            .wait_until_gone()
            .wait(secs(1))
            .await
            .unwrap()
            .polls,
        1
    );
    assert_eq!(Configured::GONE_WAITER.operation, "present");
}

/// `impl Trait` parameters are forwarded as they are (no turbofish is possible then).
#[waitable(Named: { acceptors: [ { state: "success", matcher: { success: true } } ] })]
async fn named(name: impl AsRef<str> + Clone, times: u8) -> Result<String, Busy> {
    Ok(name.as_ref().repeat(times.into()))
}

#[tokio::test(start_paused = true)]
async fn impl_trait_parameters() {
    let done = wait_until_named("ab", 2).wait(secs(1)).await.unwrap();
    assert_eq!(done.output().map(String::as_str), Some("abab"));
    let owned = String::from("x");
    let done = wait_until_named(&owned, 3).wait(secs(1)).await.unwrap();
    assert_eq!(done.into_result().unwrap(), "xxx");
}

/// A raw identifier's `r#` is not part of its error code (`r#type` has code `type`).
#[test]
fn raw_identifiers_lose_their_prefix_in_codes() {
    use waiter_runtime::ProvideErrorMetadata;
    #[derive(Debug, ProvideErrorMetadata)]
    #[allow(non_camel_case_types)]
    enum Odd {
        r#type,
        Plain,
    }
    assert_eq!(Odd::r#type.code(), Some("type"));
    assert_eq!(Odd::Plain.code(), Some("Plain"));
}
