//! Smithy's own waiter validation cases (`smithy-lang/smithy`,
//! `smithy-waiters/src/test/resources/software/amazon/smithy/waiters/errorfiles/`), translated:
//! each operation is an `async fn` returning `Result<Output, Error>`, each output structure a
//! `#[derive(Searchable)]` struct with the same member names, and each `@waitable( .. )` trait
//! value pasted as the model writes it (comments included). This file holds what Smithy
//! accepts (the `valid-*` models and the valid waiters of the other models) and polls each
//! waiter against canned outputs on tokio's paused clock; what Smithy rejects is a compile
//! error, one `ui-tests/cases/waitable/*.rs` per rule.
//!
//! How each Smithy event maps to us (an ERROR is always a compile error from us; a DANGER on a
//! path the static types say can never match, or that reads a member that does not exist, is
//! one too, since our paths are typed; WARNINGs that only say "may be null" we accept):
//!
//! | Smithy case | Smithy event | us (ui case) |
//! |---|---|---|
//! | `emits-danger-and-warning-typechecks` `` `10`.foo `` | DANGER field of a number | error: `jmespath_field_of_literal`; on a typed member (`foo.bar`, `foo: String`): `smithy_member_of_non_structure` |
//! | `emits-danger-and-warning-typechecks` `` `true` < `false` `` | WARNING `<` on booleans + DANGER returns null | one error (the path is always null): `jmespath_boolean_equals_on_null` |
//! | `invalid-boolean-expected-value` | ERROR expected not "true"/"false" | error: `boolean_equals_expected_not_boolean` |
//! | `invalid-errorType` | WARNING errorType not among the operation's errors | a warning (rustc's `deprecated` lint, at the `errorType`) when the error type derives `ProvideErrorMetadata` and every code is written in it: `smithy_error_type_not_a_code`; otherwise accepted silently (a hand-written `ProvideErrorMetadata` or a code read from a field may answer anything); it compiles and runs either way (below, `invalid_error_type`) |
//! | `invalid-jmespath-syntax` `\|\|` | ERROR syntax | error: `jmespath_invalid` |
//! | `invalid-jmespath-syntax` `` length(`10`) `` | ERROR argument + DANGER returns number | one error (the argument): `jmespath_literal_argument_wrong_type` |
//! | the same rule on a typed member (`abs(foo)`, `foo: String`; `join(', ', items)`...) | ERROR function argument | error per argument, by the JMESPath signatures: `smithy_function_argument_types` (only `length` was checked before) |
//! | `emits-danger-and-warning-typechecks` `<` on booleans, on a typed member (`ready`, a `bool`, ordered with `<`) | WARNING, and DANGER when the path is then always null | error per operand that is not a number: `smithy_ordering_non_numbers` |
//! | `invalid-return-types` (4 acceptors on `length(@)`) | DANGER per comparator | error per acceptor: `jmespath_boolean_equals_on_length`, `jmespath_list_comparator_on_non_array` (one rule: the path's static type cannot satisfy the comparator) |
//! | `invalid-message-on-non-failure` | ERROR | error: `message_on_non_failure_acceptor` |
//! | `invalid-message-return-type` (`baz: Boolean`) | ERROR | error: `message_not_a_string` (static type); a typed member: the next row's rule |
//! | `invalid-message-array-of-non-strings` (`flags: BooleanList`) | ERROR | error: `smithy_invalid_message_array_of_non_strings` |
//! | `invalid-message-jmespath` (`foo.@@invalid`) | ERROR syntax | error: `smithy_invalid_message_jmespath` |
//! | `invalid-output-structure-member-access`, `invalid-structure-member-access` | DANGER unknown member | error: `typed_typo` |
//! | `invalid-inputoutput-path` `input.foop == output.bazz` | 2 DANGER unknown members | 2 errors: `typed_input_output_sides` |
//! | `invalid-inputoutput-path` `foo == baz` | 2 DANGER (no `input`/`output` root) | error per root: `input_output_unknown_root` |
//! | `inputOutput-operation-with-no-input` | none (Smithy 2.0: input is an empty structure) | accepted (below); reading `input.x` with no parameter is an error: `input_output_input_without_parameters` |
//! | `inputOutput-operation-with-no-output` (and the 1.0 `invalid-inputOutput-..`) | DANGER (ERROR in Smithy 1.0) | error: `input_output_output_on_unit_output` |
//! | `output-on-bad-shapes` (and the 1.0 `input-output-on-bad-shapes`) | DANGER (ERROR in 1.0) | error: `output_matcher_on_unit_output` |
//! | `minDelay-greater-than-maxDelay` | ERROR on `Bad` | error: `min_delay_above_max_delay`; `Good` below |
//! | `not-uppercamelcase` | ERROR | error: `name_not_upper_camel_case` |
//! | (trait value) `WaiterDelay` is an `integer` `@range(min: 1)`; `tags` a `NonEmptyStringList` | ERROR (trait value) | error: `delay_below_one`, `smithy_delay_not_an_integer` (above 2147483647), `smithy_tags_empty_string` |
//! | `waiter-missing-success-state` | ERROR | error: `no_success_acceptor` |
//! | `waiter-name-conflicts` (same names on two operations of one service) | ERROR | error: `name_duplicate_across_functions`, `name_duplicate_ignoring_case` (one service is one client: the operations are methods of one impl block) |
//! | `cannot-wait-on-streaming-operations` | ERROR (trait target) | not applicable: a Rust signature does not say that a member streams; a stream type that is not `Searchable` is already an error when a path reads it, and a `success`/`errorType` waiter on a call that opens a stream is harmless (each poll is a new call) |
//! | `valid-composite`, `valid-inputpath` (Smithy 1.0 drafts: `and`/`or`/`not` and `input` matchers, `arrayEmpty`) | none then; removed from Smithy | errors saying what to write: `smithy_composite_matchers`, `smithy_input_matcher`, `smithy_array_empty_comparator`; their conditions written as today's spec allows are below |
//!
//! Where we differ from Smithy's validators, on purpose:
//! - Two names equal ignoring case on one operation (`AB` and `Ab`): Smithy's
//!   `UniqueWaiterNamesValidator` only compares the waiters of different operations, so it
//!   accepts them; the spec says each waiter in the closure of a service MUST have a
//!   case-insensitively unique name, and both would be `wait_until_ab`: an error
//!   (`name_duplicate_ignoring_case`).
//! - A map member read by key (`labels.env`): Smithy's linter samples a map as an object with
//!   made-up keys and flags the read (DANGER); a map has any key, so we accept it
//!   (`typed_paths.rs`).
//! - Names equal ignoring case on two methods without a visibility (a trait impl's methods get
//!   no case marker, see the `waitable` docs): only identical `wait_until_*` names collide there.

// Smithy's test models name their members `foo` and `baz`; the helpers keep the names.
#![allow(clippy::disallowed_names)]

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use waiter_runtime::{FinalPoll, ProvideErrorMetadata, Searchable, WaiterError, waitable};

/// Canned replies: each call takes the next one; the last one repeats.
struct Replies<O, E>(Mutex<VecDeque<Result<O, E>>>);

impl<O: Clone, E: Clone> Replies<O, E> {
    fn new(replies: impl IntoIterator<Item = Result<O, E>>) -> Self {
        Self(Mutex::new(replies.into_iter().collect()))
    }

    fn next(&self) -> Result<O, E> {
        let mut replies = self.0.lock().unwrap();
        if replies.len() > 1 {
            replies.pop_front().unwrap()
        } else {
            replies.front().cloned().expect("no canned reply")
        }
    }
}

const MAX_WAIT: Duration = Duration::from_secs(60);

fn polls<O, E>(done: &FinalPoll<O, E>) -> u32 {
    done.polls
}

fn failure_acceptor<O, E>(err: &WaiterError<O, E>) -> Option<(usize, Option<&str>)> {
    match err {
        WaiterError::FailureState {
            acceptor, message, ..
        } => Some((*acceptor, message.as_deref())),
        _ => None,
    }
}

/// `valid-waiters.smithy`, as published (Smithy 2.0 version).
mod valid_waiters {
    use super::*;

    #[derive(Debug, Clone, PartialEq, Searchable)]
    pub struct AOutput {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
    pub enum AError {
        OhNo,
    }

    pub struct Client(pub Replies<AOutput, AError>);

    impl Client {
        #[waitable(@waitable(
            A: {
                "documentation": "A",
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "foo == 'hi'",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        }
                    }
                ]
            },
            B: {
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "foo == 'hey'",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        }
                    }
                ]
            },
            C: {
                "acceptors": [
                    {
                        "state": "retry",
                        "matcher": {
                            "output": {
                                "path": "foo == 'bye'",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        }
                    },
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "!foo",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        }
                    },
                    {
                        "state": "failure",
                        "matcher": {
                            "errorType": "OhNo"
                        }
                    }
                ]
            },
            D: {
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "errorType": OhNo
                        }
                    }
                ]
            },
            E: {
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "[foo]",
                                "expected": "hi",
                                "comparator": "allStringEquals"
                            }
                        }
                    },
                    {
                        "state": "failure",
                        "matcher": {
                            "output": {
                                "path": "[foo]",
                                "expected": "bye",
                                "comparator": "anyStringEquals"
                            }
                        }
                    }
                ]
            },
            F: {
                "deprecated": true,
                "tags": ["A", "B"],
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "success": true
                        }
                    },
                    {
                        "state": "failure",
                        "matcher": {
                            "success": false
                        }
                    }
                ]
            }
        ))]
        pub async fn a(&self) -> Result<AOutput, AError> {
            self.0.next()
        }
    }

    pub fn foo(foo: Option<&str>) -> Result<AOutput, AError> {
        Ok(AOutput {
            foo: foo.map(str::to_owned),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn valid_waiters_a_and_b() {
    use valid_waiters::*;
    let client = Client(Replies::new([foo(Some("hey")), foo(Some("hi"))]));
    let done = client.wait_until_a().wait(MAX_WAIT).await.unwrap();
    assert_eq!(polls(&done), 2);
    assert_eq!(Client::A_WAITER.documentation, Some("A"));

    let client = Client(Replies::new([foo(None), foo(Some("hey"))]));
    assert_eq!(
        polls(&client.wait_until_b().wait(MAX_WAIT).await.unwrap()),
        2
    );
    // `foo` never becomes "hey": B times out, with the last output.
    let client = Client(Replies::new([foo(Some("hi"))]));
    let err = client.wait_until_b().wait(MAX_WAIT).await.unwrap_err();
    assert!(
        matches!(err, WaiterError::ExceededMaxWait { .. }),
        "{err:?}"
    );
}

#[tokio::test(start_paused = true)]
async fn valid_waiters_c_retries_succeeds_on_not_foo_fails_on_oh_no() {
    use valid_waiters::*;
    // "bye" retries; a missing `foo` makes `!foo` true.
    let client = Client(Replies::new([
        foo(Some("bye")),
        foo(Some("bye")),
        foo(None),
    ]));
    assert_eq!(
        polls(&client.wait_until_c().wait(MAX_WAIT).await.unwrap()),
        3
    );
    // An empty string is falsy too.
    let client = Client(Replies::new([foo(Some(""))]));
    assert_eq!(
        polls(&client.wait_until_c().wait(MAX_WAIT).await.unwrap()),
        1
    );
    let client = Client(Replies::new([foo(Some("bye")), Err(AError::OhNo)]));
    let err = client.wait_until_c().wait(MAX_WAIT).await.unwrap_err();
    assert_eq!(failure_acceptor(&err), Some((2, None)), "{err:?}");
}

#[tokio::test(start_paused = true)]
async fn valid_waiters_d_succeeds_on_the_unquoted_error_type() {
    use valid_waiters::*;
    let client = Client(Replies::new([foo(Some("hi")), Err(AError::OhNo)]));
    let done = client.wait_until_d().wait(MAX_WAIT).await.unwrap();
    assert_eq!((done.polls, done.result), (2, Err(AError::OhNo)));
}

#[tokio::test(start_paused = true)]
async fn valid_waiters_e_multi_select_lists() {
    use valid_waiters::*;
    let client = Client(Replies::new([foo(Some("other")), foo(Some("hi"))]));
    assert_eq!(
        polls(&client.wait_until_e().wait(MAX_WAIT).await.unwrap()),
        2
    );
    let client = Client(Replies::new([foo(None), foo(Some("bye"))]));
    let err = client.wait_until_e().wait(MAX_WAIT).await.unwrap_err();
    assert_eq!(failure_acceptor(&err), Some((1, None)), "{err:?}");
}

#[tokio::test(start_paused = true)]
#[allow(deprecated)] // `F` is `deprecated: true`
async fn valid_waiters_f_deprecated_with_tags() {
    use valid_waiters::*;
    const { assert!(Client::F_WAITER.deprecated) };
    assert_eq!(Client::F_WAITER.tags, ["A", "B"]);
    let client = Client(Replies::new([foo(None)]));
    assert_eq!(
        polls(&client.wait_until_f().wait(MAX_WAIT).await.unwrap()),
        1
    );
    let client = Client(Replies::new([Err(AError::OhNo)]));
    let err = client.wait_until_f().wait(MAX_WAIT).await.unwrap_err();
    assert_eq!(failure_acceptor(&err), Some((1, None)), "{err:?}");
}

/// `valid-inputoutput.smithy`: `input` is the one parameter.
mod valid_inputoutput {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct AInput {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, Searchable)]
    pub struct AOutput {
        pub baz: Option<String>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum AError {}

    pub struct Client(pub Replies<AOutput, AError>);

    impl Client {
        #[waitable(@waitable(
            A: {
                "documentation": "A",
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "inputOutput": {
                                "path": "input.foo == output.baz",
                                "expected": "true",
                                "comparator": "booleanEquals"
                            }
                        }
                    }
                ]
            }
        ))]
        pub async fn a(&self, input: AInput) -> Result<AOutput, AError> {
            let _ = input;
            self.0.next()
        }
    }

    pub fn baz(baz: &str) -> Result<AOutput, AError> {
        Ok(AOutput {
            baz: Some(baz.to_owned()),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn valid_inputoutput_compares_input_with_output() {
    use valid_inputoutput::*;
    let client = Client(Replies::new([baz("x"), baz("y"), baz("mine")]));
    let input = AInput {
        foo: Some("mine".into()),
    };
    let done = client.wait_until_a(input).wait(MAX_WAIT).await.unwrap();
    assert_eq!(polls(&done), 3);
    // Two missing members are equal (`null == null`).
    let client = Client(Replies::new([Ok(AOutput { baz: None })]));
    let done = client
        .wait_until_a(AInput { foo: None })
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!(polls(&done), 1);
}

/// `input-output-and-bug-test.smithy`: one structure for input and output, and `&&` of two
/// comparisons is a boolean.
mod input_output_and {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    #[allow(non_snake_case)] // the member is `Status` in the model
    pub struct WaitersTestInputOutput {
        pub Status: Option<String>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum WaitersTestError {}

    pub struct Client(pub Replies<WaitersTestInputOutput, WaitersTestError>);

    impl Client {
        #[waitable(@waitable(
            A: {
                documentation: "A",
                acceptors: [
                    {
                        state: "success",
                        matcher: {
                            inputOutput: {
                                path: "(input.Status == 'failed') && (output.Status == 'failed')",
                                expected: "true",
                                comparator: "booleanEquals"
                            }
                        }
                    }
                ]
            }
        ))]
        pub async fn waiters_test(
            &self,
            input: WaitersTestInputOutput,
        ) -> Result<WaitersTestInputOutput, WaitersTestError> {
            let _ = input;
            self.0.next()
        }
    }

    pub fn status(s: &str) -> WaitersTestInputOutput {
        WaitersTestInputOutput {
            Status: Some(s.to_owned()),
        }
    }
}

#[tokio::test(start_paused = true)]
async fn input_output_and_needs_both_sides() {
    use input_output_and::*;
    let client = Client(Replies::new([Ok(status("ok")), Ok(status("failed"))]));
    let done = client
        .wait_until_a(status("failed"))
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!(polls(&done), 2);
    let client = Client(Replies::new([Ok(status("failed"))]));
    let err = client
        .wait_until_a(status("ok"))
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::ExceededMaxWait { .. }),
        "{err:?}"
    );
}

/// `inputOutput-operation-with-no-input.smithy` (Smithy 2.0: an operation without input has
/// an empty input structure, so `output.foo` is valid): a function without parameters.
mod input_output_no_input {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct AOutput {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum AError {}

    pub struct Client(pub Replies<AOutput, AError>);

    impl Client {
        #[waitable(@waitable(
            A: {
                documentation: "A"
                acceptors: [
                    {
                        state: "success"
                        matcher: {
                            inputOutput: { path: "output.foo == 'hi'", expected: "true", comparator: "booleanEquals" }
                        }
                    }
                ]
            }
        ))]
        pub async fn a(&self) -> Result<AOutput, AError> {
            self.0.next()
        }
    }

    /// The same with no parameter at all; `input` is then an empty object.
    #[waitable(B: { acceptors: [{ state: "success", matcher: { inputOutput: {
        path: "output.foo == 'hi' && input == `{}`", expected: "true", comparator: "booleanEquals" } } }] })]
    pub async fn b() -> Result<AOutput, AError> {
        Ok(AOutput {
            foo: Some("hi".into()),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn input_output_without_input() {
    use input_output_no_input::*;
    let client = Client(Replies::new([
        Ok(AOutput { foo: None }),
        Ok(AOutput {
            foo: Some("hi".into()),
        }),
    ]));
    let done = client.wait_until_a().wait(MAX_WAIT).await.unwrap();
    assert_eq!(polls(&done), 2);
    assert_eq!(polls(&wait_until_b().wait(MAX_WAIT).await.unwrap()), 1);
}

/// `minDelay-greater-than-maxDelay.smithy`: its `Good` waiter (its `Bad` one is the ui case
/// `min_delay_above_max_delay`).
mod min_delay_good {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct AOutput {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum AError {}

    pub struct Client(pub Replies<AOutput, AError>);

    impl Client {
        #[waitable(
            Good: {
                "minDelay": 5,
                "maxDelay": 10,
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "foo == 'hey'",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        }
                    }
                ]
            }
        )]
        pub async fn a(&self) -> Result<AOutput, AError> {
            self.0.next()
        }
    }
}

#[tokio::test(start_paused = true)]
async fn min_delay_good_polls_after_min_delay() {
    use min_delay_good::*;
    assert_eq!(Client::GOOD_WAITER.min_delay, Duration::from_secs(5));
    assert_eq!(Client::GOOD_WAITER.max_delay, Duration::from_secs(10));
    let client = Client(Replies::new([
        Ok(AOutput { foo: None }),
        Ok(AOutput {
            foo: Some("hey".into()),
        }),
    ]));
    let done = client.wait_until_good().wait(MAX_WAIT).await.unwrap();
    // The first retry waits `random(minDelay, min(maxDelay, minDelay))`: exactly 5 s.
    assert_eq!((done.polls, done.elapsed), (2, Duration::from_secs(5)));
}

/// `invalid-boolean-expected-value.smithy` with its one mistake fixed as the error says
/// (`expected: "foo"` becomes `"true"`): a path that is a literal is valid.
mod boolean_expected_fixed {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct AOutput {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum AError {
        #[allow(dead_code)] // modeled, never returned here
        OhNo,
    }

    pub struct Client(pub Replies<AOutput, AError>);

    impl Client {
        #[waitable(@waitable(
            A: {
                "documentation": "A",
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "`true`",
                                "comparator": "booleanEquals",
                                "expected": "true" // was "foo": must be true | false
                            }
                        }
                    },
                    {
                        "state": "retry",
                        "matcher": {
                            "output": {
                                "path": "`true`",
                                "comparator": "booleanEquals",
                                "expected": "true" // this is fine
                            }
                        }
                    },
                    {
                        "state": "failure",
                        "matcher": {
                            "output": {
                                "path": "`true`",
                                "comparator": "booleanEquals",
                                "expected": "false" // this is fine
                            }
                        }
                    },
                ]
            }
        ))]
        pub async fn a(&self) -> Result<AOutput, AError> {
            self.0.next()
        }
    }
}

#[tokio::test(start_paused = true)]
async fn boolean_literal_paths() {
    use boolean_expected_fixed::*;
    let client = Client(Replies::new([Ok(AOutput { foo: None })]));
    assert_eq!(
        polls(&client.wait_until_a().wait(MAX_WAIT).await.unwrap()),
        1
    );
}

/// `invalid-errorType.smithy`: Smithy warns (an `errorType` the operation does not model); so
/// do we, when the error type derives `ProvideErrorMetadata` with codes written in the source
/// (`smithy_error_type_not_a_code` records the warning), and the waiter treats the modeled
/// error as unmatched.
mod invalid_error_type {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct AOutput {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
    pub enum AError {
        OhNo,
    }

    pub struct Client(pub Replies<AOutput, AError>);

    #[allow(deprecated)] // the warning this case is about (on the impl: it is the waiter's)
    impl Client {
        #[waitable(@waitable(
            A: {
                "documentation": "A",
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "errorType": "Nope"
                        }
                    }
                ]
            }
        ))]
        pub async fn a(&self) -> Result<AOutput, AError> {
            self.0.next()
        }
    }
}

/// `errorType` with the absolute shape ID Smithy's validator also accepts
/// (`error.equals(errorId.toString())`): it matches on the name.
mod absolute_error_type {
    use super::*;

    #[derive(Debug, Clone, PartialEq, ProvideErrorMetadata)]
    pub enum AError {
        OhNo,
    }

    #[waitable(A: { acceptors: [{ state: "success", matcher: { errorType: "smithy.example#OhNo" } }] })]
    pub async fn a(replies: &Replies<(), AError>) -> Result<(), AError> {
        replies.next()
    }
}

#[tokio::test(start_paused = true)]
async fn absolute_error_type_matches_on_its_name() {
    use absolute_error_type::*;
    let replies = Replies::new([Ok(()), Err(AError::OhNo)]);
    let done = wait_until_a(&replies).wait(MAX_WAIT).await.unwrap();
    assert_eq!((done.polls, done.result), (2, Err(AError::OhNo)));
}

/// `waiter-name-conflicts.smithy` split into two services: Smithy's rule holds within the
/// closure of one service, ours within one client (the `pub` methods of one impl block), so
/// the same names on two clients are fine.
mod names_on_two_clients {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct Output {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum Error {}

    pub struct ServiceA(pub Replies<Output, Error>);
    pub struct ServiceB(pub Replies<Output, Error>);

    impl ServiceA {
        #[waitable(@waitable(
            A: {
                documentation: "A"
                acceptors: [
                    {
                        state: "success"
                        matcher: {
                            output: { path: "foo == 'hi'", comparator: "booleanEquals", expected: "true" }
                        }
                    }
                ]
            }
            B: {
                acceptors: [
                    {
                        state: "success"
                        matcher: {
                            output: { path: "foo == 'hey'", comparator: "booleanEquals", expected: "true" }
                        }
                    }
                ]
            }
        ))]
        pub async fn a(&self) -> Result<Output, Error> {
            self.0.next()
        }
    }

    impl ServiceB {
        #[waitable(@waitable(
            A: {
                documentation: "A"
                acceptors: [
                    {
                        state: "success"
                        matcher: {
                            output: { path: "foo == 'hi'", comparator: "booleanEquals", expected: "true" }
                        }
                    }
                ]
            }
            B: {
                acceptors: [
                    {
                        state: "success"
                        matcher: {
                            output: { path: "foo == 'hey'", comparator: "booleanEquals", expected: "true" }
                        }
                    }
                ]
            }
        ))]
        pub async fn b(&self) -> Result<Output, Error> {
            self.0.next()
        }
    }

    pub fn foo(s: &str) -> Result<Output, Error> {
        Ok(Output {
            foo: Some(s.to_owned()),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn same_names_on_two_clients() {
    use names_on_two_clients::*;
    let a = ServiceA(Replies::new([foo("hey"), foo("hi")]));
    assert_eq!(polls(&a.wait_until_a().wait(MAX_WAIT).await.unwrap()), 2);
    let b = ServiceB(Replies::new([foo("hi"), foo("hey")]));
    assert_eq!(polls(&b.wait_until_b().wait(MAX_WAIT).await.unwrap()), 2);
    assert_eq!(ServiceA::A_WAITER.operation, "a");
    assert_eq!(ServiceB::A_WAITER.operation, "b");
}

#[tokio::test(start_paused = true)]
async fn error_type_not_modeled_is_accepted() {
    use invalid_error_type::*;
    let client = Client(Replies::new([Ok(AOutput { foo: None }), Err(AError::OhNo)]));
    let err = client.wait_until_a().wait(MAX_WAIT).await.unwrap_err();
    assert!(
        matches!(
            err,
            WaiterError::OperationFailed {
                error: AError::OhNo,
                polls: 2,
                ..
            }
        ),
        "{err:?}"
    );
}

/// The `invalid-message-*.smithy` models with their mistake fixed: a `message` on the
/// `failure` acceptor, resolving to a string, or to an array of strings.
mod messages_fixed {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct AOutput {
        pub foo: Option<String>,
        pub baz: Option<bool>,
        pub status: Option<String>,
        pub flags: Option<Vec<bool>>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum AError {}

    pub struct Client(pub Replies<AOutput, AError>);

    impl Client {
        #[waitable(@waitable(
            A: {
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "foo == 'hi'",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        }
                    },
                    {
                        "state": "failure",
                        "matcher": {
                            "output": {
                                "path": "foo == 'bad'",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        },
                        "message": "foo" // was "baz", a boolean
                    }
                ]
            }
            B: {
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "output": {
                                "path": "status == 'ready'",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        }
                    },
                    {
                        "state": "failure",
                        "matcher": {
                            "output": {
                                "path": "status == 'failed'",
                                "comparator": "booleanEquals",
                                "expected": "true"
                            }
                        },
                        "message": "[status, to_string(flags)]" // was "flags", booleans
                    }
                ]
            }
        ))]
        pub async fn a(&self) -> Result<AOutput, AError> {
            self.0.next()
        }
    }

    pub fn out(foo: &str, status: &str) -> Result<AOutput, AError> {
        Ok(AOutput {
            foo: Some(foo.into()),
            baz: Some(true),
            status: Some(status.into()),
            flags: Some(vec![true, false]),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn failure_messages() {
    use messages_fixed::*;
    let client = Client(Replies::new([out("x", ""), out("bad", "")]));
    let err = client.wait_until_a().wait(MAX_WAIT).await.unwrap_err();
    assert_eq!(failure_acceptor(&err), Some((1, Some("bad"))), "{err:?}");
    let client = Client(Replies::new([out("", "failed")]));
    let err = client.wait_until_b().wait(MAX_WAIT).await.unwrap_err();
    assert_eq!(
        failure_acceptor(&err),
        Some((1, Some("failed; [true,false]"))),
        "{err:?}"
    );
    let client = Client(Replies::new([out("", "pending"), out("hi", "ready")]));
    assert_eq!(
        polls(&client.wait_until_a().wait(MAX_WAIT).await.unwrap()),
        2
    );
}

/// `valid-inputpath.smithy` and `valid-composite.smithy` (Smithy 1.0 drafts whose `input`,
/// `and`, `or` and `not` matchers and `arrayEmpty` comparator the spec no longer has; pasted
/// as published they are compile errors saying what to write): their conditions as today's
/// spec writes them.
mod historical_rewritten {
    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct AInput {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, Searchable)]
    pub struct AOutput {
        pub foo: Option<String>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum AError {
        OhNo,
    }

    pub struct Client(pub Replies<AOutput, AError>);

    impl Client {
        #[waitable(
            InputPath: {
                "acceptors": [
                    {
                        "state": "success",
                        "matcher": {
                            "inputOutput": {
                                "path": "input.foo == 'hi'", // was `input: { path: "foo == 'hi'" .. }`
                                "expected": "true",
                                "comparator": "booleanEquals"
                            }
                        }
                    },
                    {
                        "state": "success",
                        "matcher": {
                            "inputOutput": {
                                "path": "[input.foo]",
                                "expected": "hey",
                                "comparator": "allStringEquals"
                            }
                        }
                    },
                ]
            },
            Composite: {
                "acceptors": [
                    {   // was `not: { output: { path: "foo == 'hi'" .. } }`
                        "state": "success",
                        "matcher": {
                            "output": { "path": "!(foo == 'hi')", "expected": "true", "comparator": "booleanEquals" }
                        }
                    },
                    {   // was `and: [{ output: .. }, { success: true }]`: an output matcher only
                        // matches a successful call
                        "state": "success",
                        "matcher": {
                            "output": { "path": "foo == 'bye'", "expected": "true", "comparator": "booleanEquals" }
                        }
                    },
                    {   // was `or: [{ not: { success: true } }, { success: false }]`
                        "state": "success",
                        "matcher": { "success": false }
                    },
                ]
            }
        )]
        pub async fn a(&self, input: AInput) -> Result<AOutput, AError> {
            let _ = input;
            self.0.next()
        }
    }
}

#[tokio::test(start_paused = true)]
async fn historical_matchers_rewritten() {
    use historical_rewritten::*;
    let client = Client(Replies::new([Ok(AOutput { foo: None })]));
    let input = |foo: &str| AInput {
        foo: Some(foo.into()),
    };
    assert_eq!(
        polls(
            &client
                .wait_until_input_path(input("hi"))
                .wait(MAX_WAIT)
                .await
                .unwrap()
        ),
        1
    );
    assert_eq!(
        polls(
            &client
                .wait_until_input_path(input("hey"))
                .wait(MAX_WAIT)
                .await
                .unwrap()
        ),
        1
    );
    let err = client
        .wait_until_input_path(input("ho"))
        .wait(MAX_WAIT)
        .await
        .unwrap_err();
    assert!(
        matches!(err, WaiterError::ExceededMaxWait { .. }),
        "{err:?}"
    );

    let hi = || {
        Ok(AOutput {
            foo: Some("hi".into()),
        })
    };
    let client = Client(Replies::new([hi(), hi(), Ok(AOutput { foo: None })]));
    let done = client
        .wait_until_composite(input(""))
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!(done.polls, 3);
    let client = Client(Replies::new([
        hi(),
        Ok(AOutput {
            foo: Some("bye".into()),
        }),
    ]));
    let done = client
        .wait_until_composite(input(""))
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert_eq!(done.polls, 2);
    let client = Client(Replies::new([hi(), Err(AError::OhNo)]));
    let done = client
        .wait_until_composite(input(""))
        .wait(MAX_WAIT)
        .await
        .unwrap();
    assert!(matches!(done.result, Err(AError::OhNo)));
}

/// Function arguments and ordering operands on typed members: what the JMESPath signatures
/// accept compiles, in filters too (the wrong types are `smithy_function_argument_types` and
/// `smithy_ordering_non_numbers`), and evaluates.
mod function_arguments {
    use std::collections::HashMap;

    use super::*;

    #[derive(Debug, Clone, Searchable)]
    pub struct Item {
        pub name: Option<String>,
        pub n: Option<i64>,
    }

    #[derive(Debug, Clone, Searchable)]
    pub struct Output {
        pub foo: Option<String>,
        pub tags: Vec<String>,
        pub nums: Vec<f64>,
        pub items: Vec<Item>,
        pub labels: HashMap<String, String>,
        pub groups: HashMap<String, Vec<String>>,
    }

    #[derive(Debug, Clone, ProvideErrorMetadata)]
    pub enum Error {}

    pub struct Client(pub Replies<Output, Error>);

    impl Client {
        #[waitable(Ready: { acceptors: [
            { state: "failure", matcher: { output: { path: "contains(tags, 'broken') || contains(foo, 'broken')", expected: "true", comparator: "booleanEquals" } } }
            { state: "retry", matcher: { output: { path: "length(items[?starts_with(name, 'z') && n > `5`]) > `0`", expected: "true", comparator: "booleanEquals" } } }
            { state: "retry", matcher: { output: { path: "sum(nums) < `10` || avg(items[].n) < `2`", expected: "true", comparator: "booleanEquals" } } }
            { state: "retry", matcher: { output: { path: "!starts_with(foo, 'ok') || !ends_with(join('-', sort(tags)), 'z')", expected: "true", comparator: "booleanEquals" } } }
            { state: "retry", matcher: { output: { path: "length(keys(labels)) != length(values(merge(labels, groups)))", expected: "true", comparator: "booleanEquals" } } }
            { state: "success", matcher: { output: { path: "map(&name, sort_by(items, &n))", expected: "b", comparator: "anyStringEquals" } } }
        ] })]
        pub async fn get(&self) -> Result<Output, Error> {
            self.0.next()
        }
    }

    pub fn output(tags: &[&str], nums: &[f64]) -> Result<Output, Error> {
        Ok(Output {
            foo: Some("ok".into()),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            nums: nums.to_vec(),
            items: vec![
                Item {
                    name: Some("b".into()),
                    n: Some(3),
                },
                Item {
                    name: Some("a".into()),
                    n: Some(2),
                },
            ],
            labels: HashMap::from([("k".to_owned(), "v".to_owned())]),
            groups: HashMap::new(),
        })
    }
}

#[tokio::test(start_paused = true)]
async fn function_arguments_evaluate() {
    use function_arguments::*;
    // Poll 1: the sum is too small; poll 2: the sorted tags do not end with "z"; poll 3: the
    // names sorted by `n` include "b".
    let client = Client(Replies::new([
        output(&["z"], &[1.0]),
        output(&["a"], &[20.0]),
        output(&["z", "y"], &[20.0]),
    ]));
    let done = client.wait_until_ready().wait(MAX_WAIT).await.unwrap();
    assert_eq!(done.polls, 3);
    let client = Client(Replies::new([
        output(&["z"], &[1.0]),
        output(&["broken"], &[]),
    ]));
    let err = client.wait_until_ready().wait(MAX_WAIT).await.unwrap_err();
    assert_eq!(failure_acceptor(&err), Some((0, None)), "{err:?}");
    // A function and an ordering inside a filter read each element's members.
    let mut busy = output(&["z"], &[20.0]).unwrap();
    busy.items.push(Item {
        name: Some("zed".into()),
        n: Some(9),
    });
    let client = Client(Replies::new([Ok(busy), output(&["z"], &[20.0])]));
    assert_eq!(
        polls(&client.wait_until_ready().wait(MAX_WAIT).await.unwrap()),
        2
    );
}
