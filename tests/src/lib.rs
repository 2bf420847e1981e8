//! The example service and client shared by the demo and the end-to-end tests.
