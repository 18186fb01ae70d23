// Every subcommand, in the order `pressdb --help` lists them.

var commands: [any ParsableCommand.Type] {
    [
        DemoCommand.self,
        IngestCommand.self,
        ReplayCommand.self,
        AggregateCommand.self,
        MergeCommand.self,
        ReportCommand.self,
        CompareCommand.self,
        ConfigsCommand.self,
        ConfigCommand.self,
        DisplaysCommand.self,
        GenerateCommand.self,
        SpringCommand.self,
        SweepCommand.self,
        CompletionsCommand.self,
    ]
}
