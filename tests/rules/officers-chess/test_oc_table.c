#include "oc_test.h"
int main(void) { return 0; }
