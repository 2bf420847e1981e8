use waiter_runtime::ProvideErrorMetadata;

#[derive(Debug, ProvideErrorMetadata)]
enum E {
    A {
        #[error_metadata(message)]
        message: u32,
        #[error_metadata(status)]
        status: String,
        #[error_metadata(retry_after)]
        retry_after: u64,
    },
}

fn main() {}
