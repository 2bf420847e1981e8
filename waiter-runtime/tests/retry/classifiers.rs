//! Classification: the built-in classifiers, their order, overriding verdicts,
//! `RetryForbidden` short-circuiting, and classifiers set on the retrier or for one call.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use crate::support::{Script, TestError};
use waiter_runtime::retry::classifiers::{
    DEFAULT_RETRYABLE_STATUS_CODES, THROTTLING_ERROR_CODES, TRANSIENT_ERROR_CODES,
};
use waiter_runtime::retry::{
    ClassifyContext, ClassifyRetry, ErrorCodeClassifier, ErrorKind, HttpStatusCodeClassifier,
    Retrier, RetryAction, RetryClassifierPriority as P, RetryClassifiers, RetryConfig,
    SharedRetryClassifier, StopReason, classifier_fn, run_classifiers,
};

fn classify(error: TestError) -> RetryAction {
    let result: Result<(), TestError> = Err(error);
    RetryClassifiers::defaults().classify(&ClassifyContext::new(&result, 1))
}

fn fast(max_attempts: u32) -> RetryConfig {
    RetryConfig::standard()
        .max_attempts(max_attempts)
        .transient_backoff(Duration::ZERO)
        .throttling_backoff(Duration::ZERO)
        .build()
}

#[test]
fn successes_are_not_retried_by_default() {
    let ok: Result<(), TestError> = Ok(());
    let ctx = ClassifyContext::new(&ok, 1);
    assert!(ctx.is_success() && ctx.error().is_none());
    assert_eq!(
        RetryClassifiers::defaults().classify(&ctx),
        RetryAction::NoActionIndicated
    );
}

#[test]
fn the_fourteen_throttling_codes() {
    assert_eq!(THROTTLING_ERROR_CODES.len(), 14);
    for code in THROTTLING_ERROR_CODES {
        assert_eq!(
            classify(TestError::Coded(code)),
            RetryAction::throttling_error(),
            "{code}"
        );
    }
}

#[test]
fn transient_codes() {
    assert_eq!(
        TRANSIENT_ERROR_CODES,
        ["RequestTimeout", "RequestTimeoutException"]
    );
    for code in TRANSIENT_ERROR_CODES {
        assert_eq!(
            classify(TestError::Coded(code)),
            RetryAction::transient_error(),
            "{code}"
        );
    }
    assert_eq!(
        classify(TestError::Coded("ValidationException")),
        RetryAction::NoActionIndicated
    );
    assert_eq!(
        classify(TestError::Coded("throttling")),
        RetryAction::NoActionIndicated,
        "codes are exact"
    );
}

#[test]
fn status_codes_500_502_503_504_by_default() {
    assert_eq!(DEFAULT_RETRYABLE_STATUS_CODES, [500, 502, 503, 504]);
    for status in [500, 502, 503, 504] {
        assert_eq!(
            classify(TestError::Status(status)),
            RetryAction::server_error(),
            "{status}"
        );
    }
    for status in [400, 404, 429, 501, 505] {
        assert_eq!(
            classify(TestError::Status(status)),
            RetryAction::NoActionIndicated,
            "{status}"
        );
    }
}

#[test]
fn status_429_is_opt_in_and_throttling() {
    let result: Result<(), _> = Err(TestError::Status(429));
    let ctx = ClassifyContext::new(&result, 1);
    let opted_in = HttpStatusCodeClassifier::default().with_status(429);
    assert_eq!(
        opted_in.classify_retry(&ctx),
        RetryAction::throttling_error()
    );
    let custom = HttpStatusCodeClassifier::new_from_codes([409]);
    assert_eq!(custom.status_codes(), [409]);
    let conflict: Result<(), _> = Err(TestError::Status(409));
    assert_eq!(
        custom.classify_retry(&ClassifyContext::new(&conflict, 1)),
        RetryAction::client_error()
    );
    assert_eq!(
        custom.classify_retry(&ClassifyContext::new(
            &Err::<(), _>(TestError::Status(503)),
            1
        )),
        RetryAction::NoActionIndicated
    );
}

#[test]
fn transient_errors() {
    assert_eq!(classify(TestError::Timeout), RetryAction::transient_error());
}

#[test]
fn modeled_retryability_and_throttling() {
    assert_eq!(
        classify(TestError::ModeledThrottling),
        RetryAction::throttling_error()
    );
    assert_eq!(
        classify(TestError::ModeledRetryable(400)),
        RetryAction::client_error()
    );
    // 503 is retried by status too; the modeled classifier has the higher priority: same verdict.
    assert_eq!(
        classify(TestError::ModeledRetryable(503)),
        RetryAction::server_error()
    );
}

#[test]
fn retry_after_hints_are_attached() {
    assert_eq!(
        classify(TestError::UnavailableAfter(Duration::from_secs(4))),
        RetryAction::retryable_error_with_explicit_delay(
            ErrorKind::ServerError,
            Duration::from_secs(4)
        )
    );
}

#[test]
fn error_code_lists_can_be_extended() {
    let c = ErrorCodeClassifier::new()
        .with_throttling_code("Backpressure")
        .with_transient_code("Flaky");
    let check = |code: &'static str| {
        c.classify_retry(&ClassifyContext::new(
            &Err::<(), _>(TestError::Coded(code)),
            1,
        ))
    };
    assert_eq!(check("Backpressure"), RetryAction::throttling_error());
    assert_eq!(check("Flaky"), RetryAction::transient_error());
    assert_eq!(check("SlowDown"), RetryAction::throttling_error());
}

#[test]
fn default_priorities_order_the_built_ins() {
    let names: Vec<_> = RetryClassifiers::defaults()
        .iter()
        .map(|c| c.name())
        .collect();
    assert_eq!(
        names,
        [
            "server pushback",
            "http status code",
            "error code",
            "modeled as retryable",
            "transient error"
        ]
    );
    assert!(P::http_status_code_classifier() < P::error_code_classifier());
    assert!(P::error_code_classifier() < P::modeled_as_retryable_classifier());
    assert!(P::modeled_as_retryable_classifier() < P::transient_error_classifier());
}

/// Records the order classifiers run in.
#[derive(Debug)]
struct Recording {
    name: &'static str,
    priority: P,
    action: RetryAction,
    log: Arc<std::sync::Mutex<Vec<&'static str>>>,
}

impl ClassifyRetry for Recording {
    fn classify_retry(&self, _: &ClassifyContext<'_>) -> RetryAction {
        self.log.lock().unwrap().push(self.name);
        self.action.clone()
    }
    fn name(&self) -> &'static str {
        self.name
    }
    fn priority(&self) -> P {
        self.priority
    }
}

fn recording(
    log: &Arc<std::sync::Mutex<Vec<&'static str>>>,
    name: &'static str,
    priority: P,
    action: RetryAction,
) -> SharedRetryClassifier {
    SharedRetryClassifier::new(Recording {
        name,
        priority,
        action,
        log: log.clone(),
    })
}

#[test]
fn lower_priority_runs_first_and_later_verdicts_override() {
    let log = Arc::default();
    let classifiers: RetryClassifiers = [
        recording(
            &log,
            "highest",
            P::run_after(P::transient_error_classifier()),
            RetryAction::throttling_error(),
        ),
        recording(
            &log,
            "lowest",
            P::run_before(P::http_status_code_classifier()),
            RetryAction::server_error(),
        ),
        recording(
            &log,
            "silent",
            P::error_code_classifier(),
            RetryAction::NoActionIndicated,
        ),
    ]
    .into_iter()
    .collect();
    let result: Result<(), _> = Err(TestError::NotFound);
    let action = classifiers.classify(&ClassifyContext::new(&result, 1));
    assert_eq!(*log.lock().unwrap(), ["lowest", "silent", "highest"]);
    assert_eq!(
        action,
        RetryAction::throttling_error(),
        "the last non-NoActionIndicated verdict wins"
    );
}

#[test]
fn no_action_does_not_erase_an_earlier_verdict() {
    let log = Arc::default();
    let classifiers = [
        recording(
            &log,
            "a",
            P::http_status_code_classifier(),
            RetryAction::client_error(),
        ),
        recording(
            &log,
            "b",
            P::transient_error_classifier(),
            RetryAction::NoActionIndicated,
        ),
    ];
    let result: Result<(), _> = Err(TestError::NotFound);
    assert_eq!(
        run_classifiers(classifiers.iter(), &ClassifyContext::new(&result, 1)),
        RetryAction::client_error()
    );
}

#[test]
fn retry_forbidden_stops_the_chain() {
    let log = Arc::default();
    let classifiers: RetryClassifiers = [
        recording(
            &log,
            "first",
            P::http_status_code_classifier(),
            RetryAction::server_error(),
        ),
        recording(
            &log,
            "forbid",
            P::error_code_classifier(),
            RetryAction::RetryForbidden,
        ),
        recording(
            &log,
            "never runs",
            P::transient_error_classifier(),
            RetryAction::throttling_error(),
        ),
    ]
    .into_iter()
    .collect();
    let result: Result<(), _> = Err(TestError::Unavailable);
    assert_eq!(
        classifiers.classify(&ClassifyContext::new(&result, 1)),
        RetryAction::RetryForbidden
    );
    assert_eq!(*log.lock().unwrap(), ["first", "forbid"]);
}

#[test]
fn equal_priorities_keep_insertion_order() {
    let log = Arc::default();
    let classifiers: RetryClassifiers = ["a", "b", "c"]
        .into_iter()
        .map(|n| recording(&log, n, P::default(), RetryAction::NoActionIndicated))
        .collect();
    let result: Result<(), _> = Err(TestError::NotFound);
    classifiers.classify(&ClassifyContext::new(&result, 1));
    assert_eq!(*log.lock().unwrap(), ["a", "b", "c"]);
}

#[test]
fn relative_priorities_sit_between_their_neighbours() {
    let p = P::with_lower_priority_than(P::modeled_as_retryable_classifier());
    assert!(P::error_code_classifier() < p && p < P::modeled_as_retryable_classifier());
    let q = P::with_higher_priority_than(P::http_status_code_classifier());
    assert!(P::http_status_code_classifier() < q && q < P::error_code_classifier());
    assert!(
        P::transient_error_classifier() < P::default(),
        "custom classifiers override by default"
    );
}

#[test]
fn context_exposes_the_error_and_attempt() {
    let result: Result<(), _> = Err(TestError::Status(502));
    let ctx = ClassifyContext::new(&result, 3);
    assert_eq!(ctx.attempt(), 3);
    assert_eq!(ctx.error().and_then(|e| e.http_status()), Some(502));
    assert_eq!(
        ctx.downcast_error::<TestError>(),
        Some(&TestError::Status(502))
    );
    assert_eq!(ctx.downcast_error::<std::io::Error>().map(|_| ()), None);
}

#[tokio::test(start_paused = true)]
async fn a_forbidding_classifier_on_the_retrier_stops_retries() {
    let forbid_503 = classifier_fn("no 503", |ctx| {
        match ctx.error().and_then(|e| e.http_status()) {
            Some(503) => RetryAction::RetryForbidden,
            _ => RetryAction::NoActionIndicated,
        }
    })
    .with_priority(P::run_before(P::http_status_code_classifier()));
    // Runs first, and RetryForbidden ends classification before the status classifier.
    let retrier = Retrier::new(fast(5)).retry_classifier(forbid_503);
    let script = Script::failing(TestError::Unavailable);
    let report = retrier.run_report(|| script.call()).await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::NotRetryable)
    );
    // Other errors still retry.
    let script = Script::failing(TestError::Throttling);
    assert_eq!(retrier.run_report(|| script.call()).await.attempts, 5);
}

#[tokio::test(start_paused = true)]
async fn replacing_the_retriers_classifiers() {
    let only_404 = SharedRetryClassifier::new(classifier_fn("404", |ctx| {
        match ctx.error().and_then(|e| e.http_status()) {
            Some(404) => RetryAction::client_error(),
            _ => RetryAction::NoActionIndicated,
        }
    }));
    let retrier = Retrier::new(fast(3)).with_retry_classifiers([only_404]);
    assert_eq!(retrier.classifiers().len(), 1);
    let script = Script::failing(TestError::NotFound);
    assert_eq!(retrier.run_report(|| script.call()).await.attempts, 3);
    let script = Script::failing(TestError::Unavailable);
    assert_eq!(
        retrier.run_report(|| script.call()).await.attempts,
        1,
        "defaults are gone"
    );

    let none = Retrier::new(fast(3)).with_retry_classifiers([]);
    let script = Script::failing(TestError::Throttling);
    let report = none.run_report(|| script.call()).await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::NotRetryable),
        "NoActionIndicated from all: no retry"
    );
}

#[tokio::test(start_paused = true)]
async fn per_call_classifiers_add_to_or_replace_the_retriers() {
    let retrier = Retrier::new(fast(4));
    let calls = Arc::new(AtomicU32::new(0));
    let counted = calls.clone();
    let forbid_all = move || {
        let counted = counted.clone();
        classifier_fn("forbid all", move |_| {
            counted.fetch_add(1, Ordering::Relaxed);
            RetryAction::RetryForbidden
        })
    };

    // Added for one call, with the default priority: runs after the built-ins and wins.
    let script = Script::failing(TestError::Unavailable);
    let report = retrier
        .customize()
        .retry_classifier(forbid_all())
        .run_report(|| script.call())
        .await;
    assert_eq!(
        (report.attempts, report.stop),
        (1, StopReason::NotRetryable)
    );
    assert_eq!(calls.load(Ordering::Relaxed), 1);

    // The retrier itself is unchanged.
    let script = Script::failing(TestError::Unavailable);
    assert_eq!(retrier.run_report(|| script.call()).await.attempts, 4);
    assert_eq!(calls.load(Ordering::Relaxed), 1);

    // Added below the status classifier: the status verdict overrides it... except that
    // RetryForbidden ends the chain, so the call is not retried either way.
    let script = Script::failing(TestError::Unavailable);
    let low = forbid_all().with_priority(P::run_before(P::http_status_code_classifier()));
    let report = retrier
        .customize()
        .retry_classifier(low)
        .run_report(|| script.call())
        .await;
    assert_eq!(report.attempts, 1);

    // Replaced for one call: only the call's classifiers run.
    let retry_404 = SharedRetryClassifier::new(classifier_fn("404", |ctx| {
        match ctx.error().and_then(|e| e.http_status()) {
            Some(404) => RetryAction::client_error(),
            _ => RetryAction::NoActionIndicated,
        }
    }));
    let script = Script::failing(TestError::NotFound);
    let report = retrier
        .customize()
        .with_retry_classifiers([retry_404.clone()])
        .max_attempts(2)
        .run_report(|| script.call())
        .await;
    assert_eq!((report.attempts, report.stop), (2, StopReason::MaxAttempts));
    let script = Script::failing(TestError::Unavailable);
    let report = retrier
        .customize()
        .with_retry_classifiers([retry_404])
        .run_report(|| script.call())
        .await;
    assert_eq!(
        report.attempts, 1,
        "the built-ins do not run in a replaced call"
    );
}

#[tokio::test(start_paused = true)]
async fn per_call_classifiers_interleave_by_priority() {
    let log = Arc::default();
    let retrier = Retrier::new(fast(1)).with_retry_classifiers([
        recording(
            &log,
            "retrier low",
            P::http_status_code_classifier(),
            RetryAction::NoActionIndicated,
        ),
        recording(
            &log,
            "retrier high",
            P::transient_error_classifier(),
            RetryAction::NoActionIndicated,
        ),
    ]);
    let result = retrier
        .customize()
        .retry_classifier(Recording {
            name: "call middle",
            priority: P::error_code_classifier(),
            action: RetryAction::NoActionIndicated,
            log: log.clone(),
        })
        .run(|| async { Err::<(), _>(TestError::NotFound) })
        .await;
    assert!(result.is_err());
    assert_eq!(
        *log.lock().unwrap(),
        ["retrier low", "call middle", "retrier high"]
    );
}
