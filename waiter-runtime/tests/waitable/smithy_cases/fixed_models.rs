//! Models Smithy rejects, or no longer has, written as the errors say: literal paths, failure
//! messages, the Smithy 1.0 matchers in today's form, and function arguments of the right types.

use super::*;

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
