//! The models Smithy accepts as published (`valid-waiters`, `valid-inputoutput`,
//! `input-output-and-bug-test`, `inputOutput-operation-with-no-input`) and the valid `Good`
//! waiter of `minDelay-greater-than-maxDelay`.

use super::*;

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
