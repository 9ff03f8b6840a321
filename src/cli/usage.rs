//! The usage text: printed for `help`, `-h` and `--help`, and after every
//! usage error. Lists come from the registries (the agents' names).

use crate::agents::kinds;

/// The usage text.
pub fn usage() -> String {
    TEMPLATE.replace("{agents}", &kinds::names().collect::<Vec<_>>().join(", "))
}

const TEMPLATE: &str = "usage:
  compgym run [-p] [FILE|-] [ARGS...]   run a Bril program (text or JSON) as brili
                                        does; without ARGS, the program's `# ARGS:`
                                        line is used; -p prints total_dyn_inst on stderr
  compgym brili [-p] [ARGS...]          brili's own command line: the program (JSON
                                        or text) on stdin, ARGS to @main; a link
                                        named brili to compgym runs this
  compgym --version                     print the version
  compgym json [-p|-pp] [FILE|-]        print a program as Bril JSON; -p adds each
                                        function's, label's and instruction's start
                                        (pos), -pp its end too (pos_end), as bril2json
  compgym text [FILE|-]                 print a program as Bril text
  compgym verify [FILE|-]               check that a program is well formed
  compgym opt --passes FLAGS [--json] [FILE|-]
                                        optimise: pass flags and pipelines (-O1, -O2,
                                        -Oz) in order; prints the program
  compgym opt --list                    every pass flag with its description
  compgym run --passes FLAGS [-p] FILE [ARGS...]
                                        optimise, then run
  compgym features [--dot] [FILE|-]      print the program's features (InstCount,
                                        Autophase, ProGraML graph, CFG, IrSha1) as
                                        JSON; --dot prints the CFG as Graphviz DOT
  compgym generate URI                  print the program a generator URI names
                                        (generator://random-v0/SEED?size=N or
                                        generator://random-v1/SEED?size=N)
  compgym leaderboard [--quick] [--steps N] [--seconds S] [--agents LIST]
                      [--tasks size,runtime] [--suite N] [--large N] [--generated N] [--size N]
                      [--programs PATH,...] [--split train|held-out|dev]
                      [--from-scratch] [--policy FILE] [--seed N] [--json]
                                        the agents ({agents})
                                        on code size (vs -Oz) and runtime
                                        (vs -O2) over the suite, large-v0, the .bril
                                        files in PATHs (a dataset per folder) and 100
                                        generated programs the policy never saw;
                                        --split keeps one side of the hand-written
                                        programs, as one dataset and again without the
                                        programs that read no input; per program a budget of steps and/or
                                        seconds (default 5000 steps, 10 s; --no-step-limit,
                                        --no-time-limit); searches start from the
                                        baseline's passes unless --from-scratch; the
                                        policy is the bundled one unless --policy FILE;
                                        --quick: 4 suite, 2 large and 4 generated
                                        programs, 200 steps
  compgym train [--task size|runtime] [--seconds S] [--updates N] [--seed N]
                [--out FILE] [--episode-length N] [--batch N] [--epochs N]
                [--minibatch N] [--learning-rate X] [--entropy X] [--weight-decay X]
                [--hidden 64,64]
                [--validate-every N] [--programs URI,...] [--own PATH,...]
                [--program-share X] [--dev]
                                        train a policy (PPO) that picks passes before
                                        -Oz (size) or -O2 (runtime): on generated
                                        programs and, for a share X of episodes (0.5), on
                                        the train side of the hand-written programs (the
                                        bundled ones, or the URIs and datasets given,
                                        plus the .bril files in PATHs); print its curve
                                        (validated on the held-out side; with --dev,
                                        trained without the train side's development
                                        quarter and validated on it), save it as
                                        JSON (default policy.json)";
