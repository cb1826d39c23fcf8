use std::io::Read;

fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();
    for i in 0..v[0] as usize {
        println!("{}", v[1 + 2 * i] + v[2 + 2 * i]);
    }
}
