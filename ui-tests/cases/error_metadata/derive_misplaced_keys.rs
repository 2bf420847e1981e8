use waiter_runtime::ProvideErrorMetadata;

#[derive(Debug, ProvideErrorMetadata)]
#[error_metadata(retryable)]
enum E {
    #[error_metadata(retry)]
    A,
    #[error_metadata(message)]
    B(String),
    #[error_metadata(retryable(fast))]
    C,
    D(#[error_metadata(retryable)] String),
    #[error_metadata(crate = "waiter_runtime")]
    F,
}

fn main() {}
