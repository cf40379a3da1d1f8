/**
 * Application type catalogue: the application types a user can pick when creating a task, each with
 * the tech stacks offered for it. Pure data, no runtime dependencies (bundled into the browser).
 */

export type TechStack = {
  id: string;
  name: string;
  description: string;
  frontend_framework: string;
  backend_language: string;
  database: string;
};

export const APPLICATION_TYPE_IDS = [
  "web-application",
  "mobile-application",
  "api-backend",
  "desktop-application",
  "data-science",
  "ecommerce",
  "cms",
  "game",
  "iot",
  "automation",
] as const;

export type ApplicationTypeId = (typeof APPLICATION_TYPE_IDS)[number];

export type ApplicationType = {
  id: ApplicationTypeId;
  label: string;
  description: string;
  stacks: readonly TechStack[];
};

/** Listed under both "web-application" and "cms": the one stack id allowed twice in the catalogue. */
const WORDPRESS_MYSQL: TechStack = {
  id: "wordpress-mysql",
  name: "WordPress + MySQL",
  description: "The PHP content platform with themes and plugins, suited to sites that editors update daily.",
  frontend_framework: "WordPress themes (PHP templates / Gutenberg blocks)",
  backend_language: "PHP",
  database: "MySQL",
};

export const APPLICATION_TYPES: readonly ApplicationType[] = [
  {
    id: "web-application",
    label: "Web Application",
    description:
      "Interactive applications that run in the browser, from single-page apps to server-rendered sites.",
    stacks: [
      {
        id: "react-node-postgres",
        name: "React + Node.js + PostgreSQL",
        description:
          "A React single-page app talking to a Node.js (Express) API over a relational PostgreSQL store.",
        frontend_framework: "React",
        backend_language: "TypeScript (Node.js)",
        database: "PostgreSQL",
      },
      {
        id: "nextjs-postgres",
        name: "Next.js + PostgreSQL",
        description:
          "A full-stack Next.js app with server components and route handlers backed by PostgreSQL.",
        frontend_framework: "Next.js (React)",
        backend_language: "TypeScript (Node.js)",
        database: "PostgreSQL",
      },
      {
        id: "vue-express-mongodb",
        name: "Vue + Express + MongoDB",
        description: "A Vue 3 front end over an Express REST API storing flexible documents in MongoDB.",
        frontend_framework: "Vue",
        backend_language: "JavaScript (Node.js)",
        database: "MongoDB",
      },
      {
        id: "django-postgres",
        name: "Django + PostgreSQL",
        description:
          "The batteries-included Python framework with its ORM, admin site and auth on PostgreSQL.",
        frontend_framework: "Django templates (HTMX)",
        backend_language: "Python",
        database: "PostgreSQL",
      },
      {
        id: "rails-postgres",
        name: "Ruby on Rails + PostgreSQL",
        description:
          "Convention-over-configuration Rails with Hotwire for fast server-rendered CRUD apps on PostgreSQL.",
        frontend_framework: "Hotwire (Turbo + Stimulus)",
        backend_language: "Ruby",
        database: "PostgreSQL",
      },
      {
        id: "laravel-mysql",
        name: "Laravel + MySQL",
        description:
          "The expressive PHP framework with Eloquent ORM, queues and Blade or Livewire views on MySQL.",
        frontend_framework: "Blade / Livewire",
        backend_language: "PHP",
        database: "MySQL",
      },
      {
        id: "sveltekit-supabase",
        name: "SvelteKit + Supabase",
        description: "A SvelteKit app using Supabase for hosted Postgres, authentication and storage.",
        frontend_framework: "SvelteKit",
        backend_language: "TypeScript",
        database: "PostgreSQL (Supabase)",
      },
      WORDPRESS_MYSQL,
    ],
  },
  {
    id: "mobile-application",
    label: "Mobile Application",
    description: "Native or cross-platform apps for iOS and Android phones and tablets.",
    stacks: [
      {
        id: "flutter-firebase",
        name: "Flutter + Firebase",
        description:
          "A single Dart codebase for iOS and Android with Firebase for auth, Firestore data and push messages.",
        frontend_framework: "Flutter",
        backend_language: "Dart",
        database: "Cloud Firestore",
      },
      {
        id: "react-native-expo",
        name: "React Native + Expo",
        description:
          "Cross-platform mobile apps in TypeScript with Expo's managed tooling and over-the-air updates.",
        frontend_framework: "React Native (Expo)",
        backend_language: "TypeScript",
        database: "SQLite (expo-sqlite)",
      },
      {
        id: "swift-ios",
        name: "Swift + SwiftUI (iOS)",
        description: "A native iOS app built with SwiftUI and persisted locally with SwiftData.",
        frontend_framework: "SwiftUI",
        backend_language: "Swift",
        database: "SwiftData",
      },
      {
        id: "kotlin-android",
        name: "Kotlin + Jetpack Compose (Android)",
        description: "A native Android app with Jetpack Compose UI and the Room persistence library.",
        frontend_framework: "Jetpack Compose",
        backend_language: "Kotlin",
        database: "SQLite (Room)",
      },
      {
        id: "kotlin-multiplatform",
        name: "Kotlin Multiplatform + Compose Multiplatform",
        description:
          "Shared Kotlin business logic and UI across Android and iOS, with SQLDelight for local data.",
        frontend_framework: "Compose Multiplatform",
        backend_language: "Kotlin",
        database: "SQLite (SQLDelight)",
      },
      {
        id: "ionic-angular-capacitor",
        name: "Ionic + Angular + Capacitor",
        description:
          "Web technologies packaged as native apps through Capacitor, with Ionic's mobile UI components.",
        frontend_framework: "Ionic (Angular)",
        backend_language: "TypeScript",
        database: "SQLite (Capacitor plugin)",
      },
      {
        id: "dotnet-maui",
        name: ".NET MAUI",
        description:
          "Microsoft's cross-platform UI framework for Android, iOS, Windows and macOS in C# and XAML.",
        frontend_framework: ".NET MAUI (XAML)",
        backend_language: "C#",
        database: "SQLite",
      },
    ],
  },
  {
    id: "api-backend",
    label: "API / Backend Service",
    description: "Headless services exposing REST, GraphQL or RPC interfaces for other clients to consume.",
    stacks: [
      {
        id: "fastapi-postgres",
        name: "FastAPI + PostgreSQL",
        description:
          "An async Python API with Pydantic validation and automatic OpenAPI docs over PostgreSQL.",
        frontend_framework: "None",
        backend_language: "Python",
        database: "PostgreSQL",
      },
      {
        id: "go-gin-postgres",
        name: "Go + Gin + PostgreSQL",
        description: "A fast, statically compiled Go HTTP service using the Gin router and PostgreSQL.",
        frontend_framework: "None",
        backend_language: "Go",
        database: "PostgreSQL",
      },
      {
        id: "spring-boot-postgres",
        name: "Spring Boot + PostgreSQL",
        description: "An enterprise Java service with Spring Boot, Spring Data JPA and PostgreSQL.",
        frontend_framework: "None",
        backend_language: "Java",
        database: "PostgreSQL",
      },
      {
        id: "nestjs-postgres",
        name: "NestJS + PostgreSQL",
        description: "A modular TypeScript API with dependency injection, built on NestJS and PostgreSQL.",
        frontend_framework: "None",
        backend_language: "TypeScript (Node.js)",
        database: "PostgreSQL",
      },
      {
        id: "express-mongodb",
        name: "Express + MongoDB",
        description: "A minimal Node.js REST API with Express and Mongoose models stored in MongoDB.",
        frontend_framework: "None",
        backend_language: "JavaScript (Node.js)",
        database: "MongoDB",
      },
      {
        id: "aspnet-core-sqlserver",
        name: "ASP.NET Core + SQL Server",
        description: "A C# Web API with ASP.NET Core and Entity Framework Core on Microsoft SQL Server.",
        frontend_framework: "None",
        backend_language: "C#",
        database: "Microsoft SQL Server",
      },
      {
        id: "rust-axum-postgres",
        name: "Rust + Axum + PostgreSQL",
        description:
          "A memory-safe, high-throughput Rust service on Axum and Tokio using SQLx for PostgreSQL.",
        frontend_framework: "None",
        backend_language: "Rust",
        database: "PostgreSQL",
      },
      {
        id: "phoenix-postgres",
        name: "Elixir Phoenix + PostgreSQL",
        description: "A fault-tolerant Elixir API on the BEAM with Phoenix and Ecto over PostgreSQL.",
        frontend_framework: "None",
        backend_language: "Elixir",
        database: "PostgreSQL",
      },
    ],
  },
  {
    id: "desktop-application",
    label: "Desktop Application",
    description: "Installable applications for Windows, macOS and Linux desktops.",
    stacks: [
      {
        id: "electron-react",
        name: "Electron + React",
        description: "A cross-platform desktop app that ships Chromium and Node.js with a React interface.",
        frontend_framework: "React",
        backend_language: "TypeScript (Node.js)",
        database: "SQLite",
      },
      {
        id: "tauri-react",
        name: "Tauri + React",
        description: "A lightweight desktop app using the system webview for a React UI and a Rust core.",
        frontend_framework: "React",
        backend_language: "Rust",
        database: "SQLite",
      },
      {
        id: "qt-cpp",
        name: "Qt + C++",
        description: "A native cross-platform desktop app built with Qt Widgets or QML in C++.",
        frontend_framework: "Qt (Widgets / QML)",
        backend_language: "C++",
        database: "SQLite",
      },
      {
        id: "wpf-dotnet",
        name: "WPF + .NET",
        description: "A Windows desktop app with XAML-based WPF views and MVVM in C#.",
        frontend_framework: "WPF (XAML)",
        backend_language: "C#",
        database: "SQLite",
      },
      {
        id: "avalonia-dotnet",
        name: "Avalonia + .NET",
        description: "A cross-platform XAML desktop UI for Windows, macOS and Linux written in C#.",
        frontend_framework: "Avalonia UI",
        backend_language: "C#",
        database: "SQLite",
      },
      {
        id: "flutter-desktop",
        name: "Flutter Desktop",
        description:
          "Flutter's widget toolkit compiled to native Windows, macOS and Linux apps from one Dart codebase.",
        frontend_framework: "Flutter",
        backend_language: "Dart",
        database: "SQLite",
      },
      {
        id: "javafx-java",
        name: "JavaFX + Java",
        description:
          "A JVM desktop application with JavaFX scenes styled in CSS and an embedded H2 database.",
        frontend_framework: "JavaFX",
        backend_language: "Java",
        database: "H2",
      },
    ],
  },
  {
    id: "data-science",
    label: "Data Science / ML",
    description: "Data analysis, machine learning models, pipelines and the tools that serve their results.",
    stacks: [
      {
        id: "python-pandas-jupyter",
        name: "Python + pandas + Jupyter",
        description:
          "Exploratory analysis in Jupyter notebooks with pandas, NumPy and Matplotlib over CSV or Parquet files.",
        frontend_framework: "Jupyter Notebook",
        backend_language: "Python",
        database: "None",
      },
      {
        id: "pytorch-fastapi",
        name: "PyTorch + FastAPI",
        description:
          "Deep learning models trained in PyTorch and served for inference through a FastAPI endpoint.",
        frontend_framework: "None",
        backend_language: "Python",
        database: "PostgreSQL",
      },
      {
        id: "spark-databricks",
        name: "Apache Spark + Databricks",
        description: "Distributed data processing with PySpark on Databricks, storing tables in Delta Lake.",
        frontend_framework: "Databricks Notebooks",
        backend_language: "Python (PySpark)",
        database: "Delta Lake",
      },
      {
        id: "tensorflow-keras",
        name: "TensorFlow + Keras",
        description:
          "Neural network training and deployment with the Keras API on TensorFlow, exported for TF Serving.",
        frontend_framework: "None",
        backend_language: "Python",
        database: "None",
      },
      {
        id: "scikit-learn-mlflow",
        name: "scikit-learn + MLflow",
        description:
          "Classical machine learning with scikit-learn, with experiments and models tracked in MLflow.",
        frontend_framework: "MLflow UI",
        backend_language: "Python",
        database: "PostgreSQL",
      },
      {
        id: "streamlit-python",
        name: "Streamlit + Python",
        description: "Interactive data apps and dashboards written in pure Python with Streamlit.",
        frontend_framework: "Streamlit",
        backend_language: "Python",
        database: "DuckDB",
      },
      {
        id: "r-shiny",
        name: "R + Shiny",
        description: "Statistical analysis in R with tidyverse, published as interactive Shiny web apps.",
        frontend_framework: "Shiny",
        backend_language: "R",
        database: "PostgreSQL",
      },
    ],
  },
  {
    id: "ecommerce",
    label: "E-commerce",
    description: "Online stores with catalogues, carts, checkout and order management.",
    stacks: [
      {
        id: "shopify-liquid",
        name: "Shopify + Liquid",
        description: "A hosted Shopify store customised with Liquid theme templates and Shopify apps.",
        frontend_framework: "Liquid (Shopify themes)",
        backend_language: "Liquid",
        database: "Shopify (managed)",
      },
      {
        id: "magento-php",
        name: "Magento (Adobe Commerce) + PHP",
        description: "A self-hosted, highly extensible PHP commerce platform for large catalogues on MySQL.",
        frontend_framework: "Magento Luma / Hyvä themes",
        backend_language: "PHP",
        database: "MySQL",
      },
      {
        id: "medusa-nextjs",
        name: "Medusa + Next.js",
        description: "A headless Node.js commerce engine with a Next.js storefront and PostgreSQL.",
        frontend_framework: "Next.js (React)",
        backend_language: "TypeScript (Node.js)",
        database: "PostgreSQL",
      },
      {
        id: "woocommerce-php",
        name: "WooCommerce + PHP",
        description: "The WordPress commerce plugin adding products, cart and checkout to a WordPress site.",
        frontend_framework: "WordPress themes (WooCommerce blocks)",
        backend_language: "PHP",
        database: "MySQL",
      },
      {
        id: "saleor-django",
        name: "Saleor + Django",
        description:
          "A GraphQL-first headless commerce platform in Python with a React dashboard and PostgreSQL.",
        frontend_framework: "React (Saleor storefront)",
        backend_language: "Python",
        database: "PostgreSQL",
      },
      {
        id: "sylius-symfony",
        name: "Sylius + Symfony",
        description: "A customisable PHP commerce framework built on Symfony components and Doctrine.",
        frontend_framework: "Twig (Symfony UX)",
        backend_language: "PHP",
        database: "MySQL",
      },
    ],
  },
  {
    id: "cms",
    label: "Content Management (CMS)",
    description: "Systems that let editors create, organise and publish content without touching code.",
    stacks: [
      WORDPRESS_MYSQL,
      {
        id: "strapi-react",
        name: "Strapi + React",
        description: "A headless Node.js CMS with a customisable admin panel, consumed by a React front end.",
        frontend_framework: "React",
        backend_language: "TypeScript (Node.js)",
        database: "PostgreSQL",
      },
      {
        id: "ghost-node",
        name: "Ghost + Node.js",
        description: "A Node.js publishing platform for blogs and newsletters with built-in memberships.",
        frontend_framework: "Handlebars (Ghost themes)",
        backend_language: "JavaScript (Node.js)",
        database: "MySQL",
      },
      {
        id: "drupal-php",
        name: "Drupal + PHP",
        description: "A PHP CMS for structured content, fine-grained permissions and multilingual sites.",
        frontend_framework: "Twig (Drupal themes)",
        backend_language: "PHP",
        database: "MySQL",
      },
      {
        id: "sanity-nextjs",
        name: "Sanity + Next.js",
        description: "A hosted, real-time structured content backend with a React Studio and a Next.js site.",
        frontend_framework: "Next.js (React)",
        backend_language: "TypeScript",
        database: "Sanity Content Lake",
      },
      {
        id: "payload-nextjs",
        name: "Payload CMS + Next.js",
        description: "A code-first TypeScript headless CMS that installs directly into a Next.js app.",
        frontend_framework: "Next.js (React)",
        backend_language: "TypeScript (Node.js)",
        database: "PostgreSQL",
      },
    ],
  },
  {
    id: "game",
    label: "Game",
    description: "Interactive 2D and 3D games for desktop, console, mobile or the browser.",
    stacks: [
      {
        id: "unity-csharp",
        name: "Unity + C#",
        description: "A widely used 2D/3D engine with C# scripting and export to almost every platform.",
        frontend_framework: "Unity",
        backend_language: "C#",
        database: "None",
      },
      {
        id: "godot-gdscript",
        name: "Godot + GDScript",
        description: "An open-source scene-based engine scripted in the Python-like GDScript language.",
        frontend_framework: "Godot",
        backend_language: "GDScript",
        database: "None",
      },
      {
        id: "unreal-cpp",
        name: "Unreal Engine + C++",
        description: "A high-fidelity 3D engine programmed in C++ and Blueprints for AAA-quality games.",
        frontend_framework: "Unreal Engine",
        backend_language: "C++",
        database: "None",
      },
      {
        id: "phaser-typescript",
        name: "Phaser + TypeScript",
        description: "Browser-based 2D games rendered with WebGL or Canvas using the Phaser framework.",
        frontend_framework: "Phaser",
        backend_language: "TypeScript",
        database: "None",
      },
      {
        id: "pygame-python",
        name: "Pygame + Python",
        description: "Simple 2D games and prototypes written in Python on top of SDL with Pygame.",
        frontend_framework: "Pygame",
        backend_language: "Python",
        database: "None",
      },
      {
        id: "bevy-rust",
        name: "Bevy + Rust",
        description: "A data-driven entity-component-system game engine written in and scripted with Rust.",
        frontend_framework: "Bevy",
        backend_language: "Rust",
        database: "None",
      },
    ],
  },
  {
    id: "iot",
    label: "IoT / Embedded",
    description: "Firmware and software for microcontrollers, sensors and connected devices.",
    stacks: [
      {
        id: "arduino-cpp",
        name: "Arduino + C++",
        description: "Microcontroller firmware written in Arduino C++ for sensors, actuators and prototypes.",
        frontend_framework: "None",
        backend_language: "C++",
        database: "None",
      },
      {
        id: "raspberry-pi-python",
        name: "Raspberry Pi + Python",
        description: "A Linux single-board computer running Python to drive GPIO hardware and log readings.",
        frontend_framework: "None",
        backend_language: "Python",
        database: "SQLite",
      },
      {
        id: "esp32-micropython",
        name: "ESP32 + MicroPython",
        description:
          "Wi-Fi and Bluetooth enabled ESP32 boards programmed in MicroPython, publishing over MQTT.",
        frontend_framework: "None",
        backend_language: "MicroPython",
        database: "None",
      },
      {
        id: "zephyr-rtos-c",
        name: "Zephyr RTOS + C",
        description:
          "A real-time operating system for resource-constrained devices with firmware written in C.",
        frontend_framework: "None",
        backend_language: "C",
        database: "None",
      },
      {
        id: "rust-embassy",
        name: "Embedded Rust + Embassy",
        description: "Async, memory-safe firmware for microcontrollers using Rust and the Embassy framework.",
        frontend_framework: "None",
        backend_language: "Rust",
        database: "None",
      },
      {
        id: "node-red-influxdb",
        name: "Node-RED + MQTT + InfluxDB",
        description:
          "Flow-based wiring of device MQTT messages into an InfluxDB time-series store with dashboards.",
        frontend_framework: "Node-RED Dashboard",
        backend_language: "JavaScript (Node.js)",
        database: "InfluxDB",
      },
    ],
  },
  {
    id: "automation",
    label: "Automation / Scripting",
    description: "Scripts, bots and workflows that automate repetitive tasks and integrate systems.",
    stacks: [
      {
        id: "python-selenium",
        name: "Python + Selenium",
        description: "Browser automation and scraping with Selenium WebDriver driven from Python scripts.",
        frontend_framework: "None",
        backend_language: "Python",
        database: "None",
      },
      {
        id: "playwright-node",
        name: "Playwright + Node.js",
        description:
          "Reliable cross-browser automation and end-to-end testing with Playwright in TypeScript.",
        frontend_framework: "None",
        backend_language: "TypeScript (Node.js)",
        database: "None",
      },
      {
        id: "n8n",
        name: "n8n",
        description: "A self-hostable, node-based workflow automation tool connecting hundreds of services.",
        frontend_framework: "n8n editor (Vue)",
        backend_language: "TypeScript (Node.js)",
        database: "PostgreSQL",
      },
      {
        id: "airflow-python",
        name: "Apache Airflow + Python",
        description:
          "Scheduled, dependency-aware workflows defined as Python DAGs and orchestrated by Airflow.",
        frontend_framework: "Airflow web UI",
        backend_language: "Python",
        database: "PostgreSQL",
      },
      {
        id: "powershell-scripts",
        name: "PowerShell",
        description: "Cross-platform PowerShell scripts for administering Windows, Azure and Microsoft 365.",
        frontend_framework: "None",
        backend_language: "PowerShell",
        database: "None",
      },
      {
        id: "ansible-yaml",
        name: "Ansible",
        description:
          "Agentless infrastructure and configuration automation through YAML playbooks run over SSH.",
        frontend_framework: "None",
        backend_language: "YAML (Ansible playbooks)",
        database: "None",
      },
    ],
  },
];

export function findApplicationType(id: string): ApplicationType | undefined {
  return APPLICATION_TYPES.find((type) => type.id === id);
}

/** The stack with this id, only if it is offered for the given application type. */
export function findStack(applicationTypeId: string, stackId: string): TechStack | undefined {
  return findApplicationType(applicationTypeId)?.stacks.find((stack) => stack.id === stackId);
}

/** The stack with this id under any application type. */
export function findStackAnywhere(stackId: string): TechStack | undefined {
  for (const type of APPLICATION_TYPES) {
    const stack = type.stacks.find((s) => s.id === stackId);
    if (stack) return stack;
  }
  return undefined;
}
