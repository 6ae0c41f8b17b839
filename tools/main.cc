// attnprop: the command line over attnprop's own claims (tools/cli_main.cc).
#include "tools/cli_main.h"

int main(int argc, char** argv) { return attnprop::cli::Main(argc, argv); }
