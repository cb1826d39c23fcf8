use std::io::{Read, Write};

fn main() {
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut numbers = input.split_ascii_whitespace().map(|t| t.parse::<i64>().unwrap());
    let t = numbers.next().unwrap_or(0);
    let mut out = String::new();
    for _ in 0..t {
        let (a, b) = (numbers.next().unwrap(), numbers.next().unwrap());
        out.push_str(&format!("{}\n", a + b));
    }
    std::io::stdout().write_all(out.as_bytes()).unwrap();
}
