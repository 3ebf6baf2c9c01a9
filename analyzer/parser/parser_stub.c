/* Placeholder until the parser lands (replaced by the parser sources). */
#include "parser.h"
