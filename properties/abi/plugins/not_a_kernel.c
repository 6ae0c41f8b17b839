/* A shared library without the kernel ABI's symbols: check-kernel must say so. */
int attnprop_something_else(void) { return 1; }
