/* The table of subcommands (commands.h). */
#include "verify/cli/commands.h"

/* Only commands that are built appear here, so --help never lists a
 * placeholder. */
const cli_subcommand cli_subcommands[] = {
    {"list", "algorithms, backends, types and operators", cmd_list},
    {"verify", "compare backends against the sequential reference", cmd_verify},
    {"bench", "measure throughput against a copy of the same bytes", cmd_bench},
    {"accuracy", "float add-scans against the exact prefix sums: ulps and eta", cmd_accuracy},
    {"simulate", "run a GPU algorithm in the step-level simulator: work, steps, banks, races", cmd_simulate},
    {"deadlock", "search a kernel's block schedules under GPU progress models for a deadlock", cmd_deadlock},
    {"run", "run an unchanged nvcc-built program with every launch on the simulator", cmd_run},
    {"litmus", "PTX litmus tests against the simulator's memory model: every allowed outcome", cmd_litmus},
    {"report", "write the HTML/Markdown report of every analysis (the main job)", cmd_report},
};

const size_t cli_subcommand_count = sizeof cli_subcommands / sizeof cli_subcommands[0];
