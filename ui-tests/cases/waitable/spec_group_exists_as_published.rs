// The spec's GroupExists example, pasted exactly as published: its acceptor has no `state`
// (which the spec requires) and puts `inputOutput` directly in the acceptor instead of inside
// `matcher`. We report both rather than guess.
use waiter_runtime::waitable;

#[derive(Debug)]
pub struct ServiceError;

impl waiter_runtime::ProvideErrorMetadata for ServiceError {
    fn code(&self) -> Option<&str> {
        None
    }
}

#[derive(Debug, Clone, waiter_runtime::Searchable)]
pub struct ListGroupsInput {
    pub groups: Vec<String>,
}

#[derive(Debug, waiter_runtime::Searchable)]
pub struct ListGroupsOutput {
    pub groups: Vec<String>,
}

pub struct Client;

impl Client {
    #[waitable(
        GroupExists: {
            acceptors: [
                {
                    inputOutput: {
                        path: "length(input.groups) == length(output.groups)"
                        expected: "true"
                        comparator: "booleanEquals"
                    }
                }
            ]
        }
    )]
    async fn list_groups(&self, input: ListGroupsInput) -> Result<ListGroupsOutput, ServiceError> {
        Ok(ListGroupsOutput { groups: input.groups })
    }
}

fn main() {}
