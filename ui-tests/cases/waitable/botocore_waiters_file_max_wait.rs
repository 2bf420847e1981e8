// A whole botocore `waiters-2.json` pasted (EC2's and CloudFormation's waiters side by side):
// the one error gives each waiter's max wait from its own values, `delay` x `maxAttempts`
// (15 s x 40 = 600 s for `InstanceRunning`, 30 s x 120 = 3600 s for `StackCreateComplete`).
use waiter_runtime::waitable;

pub struct Client;

impl Client {
    #[waitable({
        "version": 2,
        "waiters": {
            "InstanceRunning": {
                "delay": 15,
                "operation": "DescribeInstances",
                "maxAttempts": 40,
                "acceptors": [
                    { "expected": "running", "matcher": "pathAll", "state": "success", "argument": "Reservations[].Instances[].State.Name" }
                ]
            },
            "StackCreateComplete": {
                "delay": 30,
                "operation": "DescribeStacks",
                "maxAttempts": 120,
                "description": "Wait until stack status is CREATE_COMPLETE.",
                "acceptors": [
                    { "expected": "CREATE_COMPLETE", "matcher": "pathAll", "state": "success", "argument": "Stacks[].StackStatus" }
                ]
            }
        }
    })]
    pub async fn describe(&self) -> Result<(), std::io::Error> {
        Ok(())
    }
}

fn main() {}
