// Every subcommand, in the order `pressdb --help` lists them.

var commands: [PressCommand.Type] {
    [
        DemoCommand.self,
        IngestCommand.self,
        ReplayCommand.self,
        ReportCommand.self,
        ConfigsCommand.self,
        ConfigCommand.self,
        GenerateCommand.self,
        SpringCommand.self,
    ]
}
