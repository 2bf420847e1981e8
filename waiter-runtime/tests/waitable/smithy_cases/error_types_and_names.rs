//! `errorType` and waiter names: an `errorType` the operation does not model (Smithy's warning,
//! ours too) or written as an absolute shape ID, and the same waiter names on two clients.

use super::*;

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
