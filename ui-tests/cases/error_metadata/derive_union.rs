use waiter_runtime::ProvideErrorMetadata;

#[derive(ProvideErrorMetadata)]
union E {
    a: u32,
}

fn main() {}
