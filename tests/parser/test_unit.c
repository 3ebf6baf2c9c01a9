#include <criterion/criterion.h>
Test(parser_unit, placeholder) {}
