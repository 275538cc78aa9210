#include "CTerminalSupport.h"
int ct_placeholder(void) { return 0; }
