// Statistics for pressdb reports and A/B comparisons. Each test is one type named for the test.
