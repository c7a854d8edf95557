"""docs/rules/philippine.md against the document (philippine.ja.txt) and the tests it names."""
from rules_doc_check import check_quotes, check_test_names


def test_rule_table_quotes_are_in_the_document():
    check_quotes("philippine", "philippine.ja.txt")


def test_rule_table_names_existing_tests():
    check_test_names("philippine")
