/* main.c — entry point of bin/roofline; everything else is in cli.c. */
#include "cli.h"

int main(int argc, char **argv) { return rl_cli_main(argc, argv); }
