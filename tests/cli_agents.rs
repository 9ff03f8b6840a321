//! `compgym leaderboard` and `compgym train`, driven as a user would.
#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Output};

fn compgym(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_compgym")).args(args).output().expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The table's data rows, split into cells.
fn rows(table: &str) -> Vec<Vec<String>> {
    table
        .lines()
        .skip(2)
        .map(|l| l.trim_matches('|').split('|').map(|c| c.trim().to_string()).collect())
        .collect()
}

#[test]
fn a_quick_leaderboard_prints_one_row_per_task_dataset_and_agent() {
    let o = compgym(&["leaderboard", "--quick"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let table = text(&o.stdout);
    assert!(table.starts_with("| task | dataset | agent | vs | geomean |"), "{table}");
    let rows = rows(&table);
    // Two tasks over the suite, large-v0 and generated programs.
    assert_eq!(rows.len(), 2 * 3 * 5, "four searches and the bundled policy: {table}");
    for row in &rows {
        let expected = if row[1] == "large-v0" { "2/2" } else { "4/4" };
        assert_eq!(row[7], expected, "every result replays and behaves: {row:?}");
        if row[2] == "policy" {
            continue;
        }
        let ratio: f64 = row[4].trim_end_matches('x').parse().unwrap();
        assert!(ratio >= 1.0, "searches start from the baseline: {row:?}");
        assert_eq!(row[6], "0", "never worse: {row:?}");
    }
    assert!(rows.iter().any(|r| r[0] == "runtime" && r[3] == "-O2"));
    assert!(text(&o.stderr).contains("[1/100]"), "progress on stderr");
}

#[test]
fn a_trained_policy_is_saved_and_joins_the_leaderboard() {
    let path = std::env::temp_dir().join(format!("compgym-policy-{}.json", std::process::id()));
    let path = path.to_str().unwrap();
    let o = compgym(&[
        "train",
        "--updates",
        "2",
        "--batch",
        "2",
        "--episode-length",
        "5",
        "--hidden",
        "8",
        "--out",
        path,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(&format!("saved {path}")), "{}", text(&o.stdout));
    let o = compgym(&["leaderboard", "--quick", "--agents", "greedy", "--tasks", "size", "--policy", path]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = rows(&text(&o.stdout));
    assert_eq!(rows.iter().filter(|r| r[2] == "policy").count(), 3, "{rows:?}");
    assert!(rows.iter().all(|r| r[5].parse::<usize>().unwrap() + r[6].parse::<usize>().unwrap() <= 4));
    let _ = std::fs::remove_file(path);
}

#[test]
fn bad_arguments_say_what_is_wrong() {
    let o = compgym(&["leaderboard", "--agents", "oracle"]);
    assert_eq!(o.status.code(), Some(1), "an unknown agent is a usage error");
    assert!(text(&o.stderr).contains("unknown agent \"oracle\""), "{}", text(&o.stderr));
    let o = compgym(&["leaderboard", "--steps", "many"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--steps"));
    let o = compgym(&["leaderboard", "--policy", "/no/such/policy.json"]);
    assert_eq!(o.status.code(), Some(1));
    let o = compgym(&["train", "--hidden", "big"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--hidden"));
}

#[test]
fn own_programs_are_a_dataset_named_after_their_folder() {
    let folder = std::env::temp_dir().join(format!("compgym-own-{}", std::process::id()));
    std::fs::create_dir_all(folder.join("sub")).unwrap();
    let program = "@main {\n  a: int = const 2;\n  b: int = add a a;\n  c: int = add a a;\n  print b;\n}\n";
    std::fs::write(folder.join("one.bril"), program).unwrap();
    std::fs::write(folder.join("sub/two.bril"), program).unwrap();
    std::fs::write(folder.join("notes.txt"), "not a program").unwrap();
    let path = folder.to_str().unwrap();
    let o = compgym(&[
        "leaderboard",
        "--quick",
        "--agents",
        "greedy",
        "--tasks",
        "size",
        "--suite",
        "0",
        "--large",
        "0",
        "--generated",
        "0",
        "--programs",
        path,
    ]);
    let _ = std::fs::remove_dir_all(&folder);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = rows(&text(&o.stdout));
    let name = folder.file_name().unwrap().to_str().unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0][1].as_str(), rows[0][7].as_str()), (name, "2/2"), "{rows:?}");
}
