"""docs/rules/taiwan.md: every quote is in the document, every named test exists."""
from rules_doc_check import check_quotes, check_test_names


def test_rule_table_quotes_are_in_the_document():
    check_quotes("taiwan", "taiwan-16.ja.txt")


def test_rule_table_names_existing_tests():
    check_test_names("taiwan")
