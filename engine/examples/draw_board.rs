//! Prints the labelled drawing of a rules file's board: `cargo run -p ludotheca-engine --example draw_board FILE [RULESET]`.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("a readable rules file");
    let file = ludotheca_engine::RulesFile::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    let game = file
        .compile(args.get(2).map(String::as_str))
        .unwrap_or_else(|e| panic!("{e}"));
    print!("{}", ludotheca_engine::drawing::labelled(&game, None, true));
}
