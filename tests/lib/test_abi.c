/* The public headers (include/scanlab/) against the library's own: every
 * enumerator, size and field offset they share must be equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "abi_entry.h"

static void test_same_layout(void **state)
{
    (void)state;
    const abi_entry *pub, *in;
    size_t np = abi_public(&pub), ni = abi_internal(&in);
    assert_int_equal(np, ni);
    unsigned bad = 0;
    for (size_t i = 0; i < np; i++) {
        assert_string_equal(pub[i].name, in[i].name);
        if (pub[i].value != in[i].value) {
            print_error("%s: public %llu, library %llu\n", pub[i].name, (unsigned long long)pub[i].value,
                        (unsigned long long)in[i].value);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_same_layout)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
